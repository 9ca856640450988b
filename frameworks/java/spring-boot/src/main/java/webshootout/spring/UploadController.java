package webshootout.spring;

import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import webshootout.common.Upload;

/**
 * upload and upload-chunked: the raw body as Spring MVC hands it to a handler (an InputStream argument, the
 * Servlet request's), streamed through SHA-256.
 *
 * <p>Neither Spring Boot nor Tomcat limits a raw body: server.tomcat.max-http-form-post-size covers form posts and
 * spring.servlet.multipart.max-file-size / max-request-size multipart ones. So the handler stops reading at 2 MiB
 * and answers 413; Tomcat then swallows at most server.tomcat.max-swallow-size (its 2 MB default) of the rest
 * before it closes the connection.
 */
@RestController
class UploadController {
    @PostMapping(value = "/upload", produces = Application.TEXT)
    String upload(InputStream body) throws IOException {
        try {
            return Upload.read(body, Upload.LIMIT);
        } catch (Upload.TooLarge e) {
            throw new ResponseStatusException(HttpStatus.PAYLOAD_TOO_LARGE, e.getMessage());
        }
    }
}
