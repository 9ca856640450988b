"""webshootout workloads (see docs/workloads.md) as plain synchronous Django views."""

import hashlib
import random
import re

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse

from hello.models import World

INTEGER = re.compile(r"-?[0-9]+")
HASH_FILE = settings.HASH_FILE


def text(body: str) -> HttpResponse:
    return HttpResponse(body, content_type="text/plain")


def bad_request(reason: str) -> HttpResponse:
    return HttpResponseBadRequest(reason, content_type="text/plain")


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
    raw = request.GET.get("n")
    if raw is None:
        return bad_request("missing query parameter n")
    if not INTEGER.fullmatch(raw):
        return bad_request("n must be an integer")
    n = int(raw)
    if not 1 <= n <= 100000:
        return bad_request("n must be between 1 and 100000")
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return text(digest.hex())
