package webshootout.dropwizard;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.jdbi3.JdbiFactory;
import io.dropwizard.views.common.ViewBundle;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ResourceServlet;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.websocket.server.config.JettyWebSocketServletContainerInitializer;
import org.jdbi.v3.core.Jdbi;
import webshootout.common.Env;
import webshootout.common.PemKeyStore;

/** Dropwizard 5: Jersey resources on its Jetty, JDBI on its managed pool, FreeMarker views. */
public final class App extends Application<App.Config> {
    /** config.yml: Dropwizard's server and logging sections, and the database. */
    public static final class Config extends Configuration {
        @Valid
        @NotNull
        @JsonProperty("database")
        private DataSourceFactory database = new DataSourceFactory();

        DataSourceFactory database() {
            return database;
        }
    }

    public static void main(String[] args) throws Exception {
        PemKeyStore tls = PemKeyStore.fromEnv();
        if (tls != null) {
            // Dropwizard's h2 connector reads a key store file, not PEM: the harness's PEM pair as PKCS#12 in the
            // server's private RUN_DIR, where config-tls.yml looks for it, its password given as a dw.* override.
            Path store = Path.of(System.getenv("RUN_DIR"), "tls.p12");
            try (OutputStream out = Files.newOutputStream(store)) {
                tls.keyStore().store(out, tls.password().toCharArray());
            }
            Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rw-------"));
            System.setProperty("dw.server.applicationConnectors[0].keyStorePassword", tls.password());
        }
        new App().run(args);
    }

    @Override
    public void initialize(Bootstrap<Config> bootstrap) {
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(true)));
        bootstrap.addBundle(new ViewBundle<>());
    }

    @Override
    public void run(Config config, Environment environment) {
        Env env = Env.fromSystem();
        Jdbi jdbi = new JdbiFactory().build(environment, config.database(), "postgresql");
        ObjectMapper mapper = environment.getObjectMapper();
        environment.jersey().register(new Resources(new Database(jdbi, mapper), Path.of(env.hashFile())));

        // static: Jetty's ResourceServlet on Dropwizard's application context (its AssetsBundle serves the classpath
        // only); /static/* is a longer match than Jersey's /*.
        ServletHolder files = new ServletHolder("static", ResourceServlet.class);
        files.setInitParameter("baseResource", Path.of(env.staticDir()).toUri().toString());
        files.setInitParameter("pathInfoOnly", "true");
        files.setInitParameter("dirAllowed", "false");
        environment.getApplicationContext().addServlet(files, "/static/*");

        JettyWebSocketServletContainerInitializer.configure(environment.getApplicationContext(), (context, container) -> {
            container.setIdleTimeout(Duration.ofMinutes(5));
            container.addMapping("/ws", (request, response) -> new Echo());
        });
    }
}
