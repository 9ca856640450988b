package webshootout.spring;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * session: the visitor is a random uid cookie and the count lives in PostgreSQL. Spring's HttpSession
 * would keep it in Tomcat's memory instead, which the contract does not allow.
 */
@RestController
class SessionController {
    private static final String COOKIE = "uid";

    private final SessionCounter counter;

    SessionController(SessionCounter counter) {
        this.counter = counter;
    }

    @GetMapping(value = "/session", produces = Application.TEXT)
    ResponseEntity<String> session(@CookieValue(name = COOKIE, required = false) String uid)
            throws JsonProcessingException {
        SessionCounter.Visit visit = counter.visit(uid);
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (visit.newUid() != null) {
            ResponseCookie cookie = ResponseCookie.from(COOKIE, visit.newUid()).path("/").httpOnly(true)
                    .sameSite("Lax").build();
            response.header(HttpHeaders.SET_COOKIE, cookie.toString());
        }
        return response.body("Count is " + visit.count());
    }
}
