# frozen_string_literal: true

# The Puma configuration the Ruby stacks share (puma -C ../common/puma.rb), in Puma's production form:
# cluster mode with WORKERS processes, the app loaded once in the master and forked (preload_app!).
#
# Threads: 5 per worker, min = max. That is Rails 6.1's generated config/puma.rb (RAILS_MAX_THREADS
# default 5) and Puma 6's default for MRI; on MRI the GVL lets one thread run Ruby at a time, so more
# threads only help while others wait on PostgreSQL or the socket.
threads_count = 5
threads threads_count, threads_count
workers Integer(ENV.fetch("WORKERS"))
preload_app!
# WORKERS is 1 on a one-CPU server: still cluster mode, so every count of workers runs the same form.
silence_single_worker_warning
bind "tcp://#{ENV.fetch('HOST')}:#{ENV.fetch('PORT')}"
environment ENV.fetch("RACK_ENV", "production")
# No request log (Puma logs none unless log_requests is set); start-up lines only.
log_requests false
# Pid and state files would default to the working directory, which the server may not write.
pidfile File.join(ENV.fetch("RUN_DIR"), "puma.pid")
tag ""
