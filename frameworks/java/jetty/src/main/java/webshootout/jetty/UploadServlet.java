package webshootout.jetty;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import webshootout.common.Upload;

/**
 * upload and upload-chunked: the body streamed from the servlet's input stream through SHA-256. Its size is
 * bounded by the SizeLimitHandler in front of the context (Main), which answers 413.
 */
final class UploadServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        byte[] answer = Upload.read(request.getInputStream()).getBytes(StandardCharsets.US_ASCII);
        response.setContentType(Main.TEXT);
        response.setContentLength(answer.length);
        response.getOutputStream().write(answer);
    }
}
