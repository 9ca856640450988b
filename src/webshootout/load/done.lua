-- Writes wrk's summary as JSON to the file named by WRK_JSON_OUT, so nobody parses wrk's text.
done = function(summary, latency, requests)
  local out = assert(io.open(os.getenv("WRK_JSON_OUT"), "w"))
  local e = summary.errors
  local function p(q) return latency:percentile(q) end
  out:write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p75":%d,"p90":%d,"p99":%d,"p99_9":%d,"p99_99":%d,' ..
    '"max":%d,"mean":%.3f,"stdev":%.3f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    p(50), p(75), p(90), p(99), p(99.9), p(99.99), latency.max, latency.mean, latency.stdev))
  out:close()
end
