package webshootout.webflux;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import webshootout.common.HttpDate;

/** Reactor Netty sets neither Server nor Date: a WebFilter adds both (Date formatted once a second, set at commit). */
@Component
class Headers implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.SERVER, "Spring WebFlux");
        // Dated when the answer is sent, not when the request came in: a request waiting on the database
        // would otherwise carry the time it arrived.
        exchange.getResponse().beforeCommit(() -> {
            headers.set(HttpHeaders.DATE, HttpDate.now());
            return Mono.empty();
        });
        return chain.filter(exchange);
    }
}
