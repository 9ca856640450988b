package webshootout.spring;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        int workers = workers();
        SpringApplication app = new SpringApplication(Application.class);
        // Sized from WORKERS here because properties files cannot compute. Blocking JDBC holds a Tomcat
        // thread per database request; idle keep-alive connections hold none (NIO connector).
        app.setDefaultProperties(Map.of(
                "server.tomcat.threads.max", String.valueOf(Math.max(32, 16 * workers)),
                "server.tomcat.threads.min-spare", String.valueOf(Math.min(8, 2 * workers)),
                "spring.datasource.hikari.maximum-pool-size", String.valueOf(Math.max(8, 4 * workers))));
        app.run(args);
    }

    private static int workers() {
        String value = System.getenv("WORKERS");
        try {
            int n = Integer.parseInt(value == null ? "" : value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the value
        }
        throw new IllegalStateException("environment variable WORKERS=" + value + " is not a positive integer");
    }
}
