package webshootout.quarkus;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.sql.SQLException;
import java.util.List;
import webshootout.common.Fortune;
import webshootout.common.JdbcWorkloads;

/** fortunes: the rows of fortune plus one, sorted, rendered by a type-safe Qute template (HTML escaping). */
@Path("/fortunes")
public class FortuneResource {
    @CheckedTemplate
    static class Templates {
        static native TemplateInstance fortunes(List<Fortune> fortunes);
    }

    private final JdbcWorkloads workloads;

    FortuneResource(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    @GET
    @Blocking // JDBC: on a worker thread (a method returning TemplateInstance would run on the event loop)
    @Produces("text/html; charset=utf-8")
    public TemplateInstance fortunes() throws SQLException {
        return Templates.fortunes(workloads.fortunes());
    }
}
