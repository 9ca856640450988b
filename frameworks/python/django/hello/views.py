"""webshootout workloads (see docs/workloads.md) as plain synchronous Django views, but async's."""

import asyncio
import json
import random

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from shootout_common import hashing, items, jsoncomp, upload
from shootout_common import techempower as te

from hello import world_cache
from hello.forms import ItemForm, PageForm
from hello.models import Fortune, Item, World

HASH_FILE = settings.HASH_FILE
# Django adds no charset to a content_type given whole.
TEXT = "text/plain; charset=utf-8"


def text(body: str) -> HttpResponse:
    return HttpResponse(body, content_type=TEXT)


def plaintext(request):
    return text("Hello, World!")


async def async_(request):
    # The async workload, Django's async view: under ASGI (django-uvicorn) it awaits on the event loop without
    # holding a thread; under WSGI (gunicorn gthread, runserver) Django runs it to its end while the request's
    # thread waits, as a thread-per-request server does.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


def json_(request):
    return JsonResponse({"message": "Hello, World!"})


def db(request):
    world = World.objects.get(pk=random.randint(1, 10000))
    return JsonResponse({"id": world.id, "randomNumber": world.randomnumber})


def session(request):
    # The database session backend loads django_session on first access and saves it after the view.
    count = request.session.get("count", 0) + 1
    request.session["count"] = count
    return text(f"Count is {count}")


def hash_(request):
    try:
        n = hashing.parse_n(request.GET.get("n"))
    except ValueError as reason:
        return HttpResponseBadRequest(str(reason), content_type=TEXT)
    return text(hashing.iterated_sha256(HASH_FILE, n))


def _worlds(n: int) -> list[World]:
    return [World.objects.get(pk=i) for i in te.random_ids(n)]


def _answer(worlds) -> JsonResponse:
    return JsonResponse([te.world(w.id, w.randomnumber) for w in worlds], safe=False)


def queries(request):
    return _answer(_worlds(te.count(request.GET.get("queries"))))


def updates(request):
    worlds = _worlds(te.count(request.GET.get("queries")))
    for w in worlds:
        w.randomnumber = te.random_id()
    # One UPDATE ... SET randomnumber = CASE id WHEN ... statement for all the rows (Django batches a
    # bulk_update only on backends with a parameter limit, which PostgreSQL has not).
    World.objects.bulk_update(worlds, ["randomnumber"])
    return _answer(worlds)


def fortunes(request):
    # Django's template engine autoescapes every variable; render() answers text/html; charset=utf-8.
    return render(request, "fortunes.html", {"fortunes": te.fortunes_sorted(Fortune.objects.all())})


def cached_queries(request):
    return JsonResponse(world_cache.pick(te.count(request.GET.get("count"))), safe=False)


def json_comp(request):
    # Compressed on the way out by GZipMiddleware (project/settings.py).
    return JsonResponse(jsoncomp.items(jsoncomp.count(request.GET.get("n"))), safe=False)


# csrf_exempt: a body posted by a non-browser client, with no form or cookie to carry a CSRF token.
@csrf_exempt
@require_POST
def upload_body(request):
    # request.body: Django reads the body whole, refusing one over DATA_UPLOAD_MAX_MEMORY_SIZE.
    return text(upload.answer(request.body))


# crud: class-based views (View dispatches on the method), Django forms for the body and the query, the ORM.
def item_form(request, instance: Item | None = None) -> ItemForm | HttpResponse:
    """The body bound to ItemForm, or the answer that refuses it: 400 when it is not JSON, 422 when it is JSON of
    another shape (the form's errors as Django gives them)."""
    try:
        body = json.loads(request.body)
    except ValueError:
        return HttpResponseBadRequest("the body is not JSON", content_type=TEXT)
    if not isinstance(body, dict):
        return JsonResponse({"__all__": [{"message": "Expected a JSON object.", "code": "invalid"}]}, status=422)
    form = ItemForm(body, instance=instance)
    if not form.is_valid():
        return JsonResponse(form.errors.get_json_data(), status=422)
    return form


# csrf_exempt: JSON sent by a non-browser client, with no form or cookie to carry a CSRF token.
@method_decorator(csrf_exempt, name="dispatch")
class ItemCollection(View):
    def get(self, request):
        form = PageForm(request.GET)
        if not form.is_valid():
            return HttpResponseBadRequest(form.errors.as_text(), content_type=TEXT)
        page = form.cleaned_data["page"] or items.PAGE
        size = form.cleaned_data["size"] or items.SIZE
        start = items.offset(page, size)
        return JsonResponse([item.as_json() for item in Item.objects.order_by("id")[start:start + size]], safe=False)

    def post(self, request):
        form = item_form(request)
        if isinstance(form, HttpResponse):
            return form
        item = form.save()
        response = JsonResponse(item.as_json(), status=201)
        response["Location"] = reverse("item", args=[item.id])
        return response


@method_decorator(csrf_exempt, name="dispatch")
class ItemDetail(View):
    def get(self, request, item_id):
        return JsonResponse(get_object_or_404(Item, pk=item_id).as_json())

    def put(self, request, item_id):
        form = item_form(request, get_object_or_404(Item, pk=item_id))
        if isinstance(form, HttpResponse):
            return form
        return JsonResponse(form.save().as_json())

    def delete(self, request, item_id):
        deleted, _ = Item.objects.filter(pk=item_id).delete()
        if not deleted:
            raise Http404
        return HttpResponse(status=204)
