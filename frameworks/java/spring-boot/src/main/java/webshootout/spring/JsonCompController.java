package webshootout.spring;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import webshootout.common.JsonComp;

/**
 * json-comp: the array of n objects through Jackson, as json; Tomcat compresses it by Spring Boot's
 * server.compression (application.properties).
 */
@RestController
class JsonCompController {
    @GetMapping(value = "/json-comp", produces = MediaType.APPLICATION_JSON_VALUE)
    List<JsonComp.Item> jsonComp(@RequestParam(name = "n", required = false) String raw) {
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, reason);
        }
        return JsonComp.items(Integer.parseInt(raw));
    }
}
