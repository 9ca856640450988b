"""webshootout workloads (see docs/workloads.md) as plain synchronous Django views."""

import random

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from shootout_common import hashing

from hello.models import World

HASH_FILE = settings.HASH_FILE
# Django adds no charset to a content_type given whole.
TEXT = "text/plain; charset=utf-8"


def text(body: str) -> HttpResponse:
    return HttpResponse(body, content_type=TEXT)


def plaintext(request):
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
