package webshootout.micronaut;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/** Micronaut's static-resource answers skip micronaut.server.server-header: the same Server header for them. */
@ServerFilter("/static/**")
public class StaticServerHeader {
    @ResponseFilter
    public void serverHeader(MutableHttpResponse<?> response) {
        if (!response.getHeaders().contains(HttpHeaders.SERVER)) {
            response.header(HttpHeaders.SERVER, "Micronaut");
        }
    }
}
