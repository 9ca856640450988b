package webshootout.spring;

import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.ModelAndView;
import webshootout.common.Fortune;
import webshootout.common.TechEmpower;

/** fortunes: the rows of fortune plus one, sorted, rendered by the Mustache view (templates/fortunes.mustache). */
@Controller
class FortuneController {
    private final JdbcTemplate jdbc;

    FortuneController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping("/fortunes")
    ModelAndView fortunes() {
        var read = jdbc.query("SELECT id, message FROM fortune", (row, n) -> new Fortune(row.getInt(1), row.getString(2)));
        return new ModelAndView("fortunes", Map.of("fortunes", TechEmpower.withExtraSorted(read)));
    }
}
