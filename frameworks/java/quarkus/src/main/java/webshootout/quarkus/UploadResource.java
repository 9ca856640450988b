package webshootout.quarkus;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.io.IOException;
import java.io.InputStream;
import webshootout.common.Upload;

/**
 * upload and upload-chunked: the body as Quarkus REST hands it to a blocking method (an InputStream entity
 * parameter, so a worker thread), streamed through SHA-256. Its size is capped by quarkus.http.limits.max-body-size
 * (application.properties), which answers 413.
 */
@Path("/upload")
public class UploadResource {
    @POST
    @Produces(HelloResource.TEXT)
    public String upload(InputStream body) throws IOException {
        return Upload.read(body);
    }
}
