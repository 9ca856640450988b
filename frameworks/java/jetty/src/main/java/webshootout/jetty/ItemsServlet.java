package webshootout.jetty;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import webshootout.common.Item;
import webshootout.common.JdbcItems;

/**
 * crud on table items, one servlet mapped to the collection (/items) and its members (/items/*): the servlet
 * API routes by method to doGet, doPost, doPut and doDelete, the member's id is the path info. A plain servlet
 * has no validation layer, so the body is Jackson's tree checked by hand; rows by JDBC (common JdbcItems).
 */
final class ItemsServlet extends HttpServlet {
    /** The collection's path, as mapped in Main; a new item's Location is under it. */
    static final String PATH = "/items";

    private final ObjectMapper mapper;
    // Trailing tokens after the value make the body something other than one JSON value: 400 like any broken JSON.
    private final ObjectReader bodies;
    private final JdbcItems items;

    ItemsServlet(ObjectMapper mapper, JdbcItems items) {
        this.mapper = mapper;
        this.bodies = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.items = items;
    }

    /** name and quantity of a POST or PUT body. */
    private record Fields(String name, int quantity) {
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        try {
            if (collection(request)) {
                Integer page = Item.parameter(request.getParameter("page"), Item.FIRST_PAGE);
                Integer size = Item.parameter(request.getParameter("size"), Item.DEFAULT_SIZE);
                if (page == null || page < Item.FIRST_PAGE || size == null || size < 1 || size > Item.MAX_SIZE) {
                    response.sendError(HttpServletResponse.SC_BAD_REQUEST,
                            "page must be an integer from 1, size an integer from 1 to " + Item.MAX_SIZE);
                    return;
                }
                json(response, HttpServletResponse.SC_OK, items.page(page, size));
                return;
            }
            Integer id = id(request);
            Item item = id == null ? null : items.find(id);
            if (item == null) {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            json(response, HttpServletResponse.SC_OK, item);
        } catch (SQLException e) {
            throw new ServletException("reading items", e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        if (!collection(request)) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        Fields fields = fields(request, response);
        if (fields == null) {
            return;
        }
        try {
            Item item = items.create(fields.name(), fields.quantity());
            response.setHeader("Location", PATH + "/" + item.id());
            json(response, HttpServletResponse.SC_CREATED, item);
        } catch (SQLException e) {
            throw new ServletException("inserting an item", e);
        }
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        if (collection(request)) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        Integer id = id(request);
        if (id == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        Fields fields = fields(request, response);
        if (fields == null) {
            return;
        }
        try {
            Item item = items.update(id, fields.name(), fields.quantity());
            if (item == null) {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            json(response, HttpServletResponse.SC_OK, item);
        } catch (SQLException e) {
            throw new ServletException("updating an item", e);
        }
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        if (collection(request)) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        Integer id = id(request);
        try {
            if (id == null || !items.delete(id)) {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
        } catch (SQLException e) {
            throw new ServletException("deleting an item", e);
        }
        response.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }

    /** /items (path info absent or "/") rather than /items/{id}. */
    private static boolean collection(HttpServletRequest request) {
        String info = request.getPathInfo();
        return info == null || info.equals("/");
    }

    /** The member's id, or null when the path's segment is not an int (no such item then). */
    private static Integer id(HttpServletRequest request) {
        try {
            return Integer.valueOf(request.getPathInfo().substring(1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The body's name and quantity, or null once the refusal is sent: 400 when it is not JSON, 422 when it is
     * JSON of another shape (not an object, name not a string, quantity not an integer that fits 32 bits).
     */
    private Fields fields(HttpServletRequest request, HttpServletResponse response) throws IOException {
        JsonNode body;
        try {
            body = bodies.readTree(request.getInputStream());
        } catch (JacksonException e) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "the body is not JSON");
            return null;
        }
        // An empty body reads as the missing node: no JSON at all.
        if (body == null || body.isMissingNode()) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "the body is not JSON");
            return null;
        }
        JsonNode name = body.get("name");
        JsonNode quantity = body.get("quantity");
        if (!body.isObject() || name == null || !name.isTextual() || quantity == null || !quantity.isInt()) {
            response.sendError(422, "expected an object with a string name and a 32-bit integer quantity");
            return null;
        }
        return new Fields(name.textValue(), quantity.intValue());
    }

    private void json(HttpServletResponse response, int status, Object answer) throws IOException {
        byte[] body = mapper.writeValueAsBytes(answer);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
