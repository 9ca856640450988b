"""Production settings; every value that varies comes from the harness's environment."""

from shootout_common import env, upload

DEBUG = False
SECRET_KEY = env.value("SECRET_KEY")
ALLOWED_HOSTS = [env.value("HOST"), "127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    # WhiteNoise serves static files under runserver too, so every variant uses one path.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sessions",
    "hello",
]

# Django's default stack minus auth and messages, which these workloads do not use.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's own compression (json-comp), at its defaults: gzip level 6 for answers of 200 bytes and more whose
    # client accepts gzip, Vary: Accept-Encoding added. Placed, as Django's middleware-ordering docs say, before
    # every middleware that reads or changes the body; WhiteNoise above it serves static files itself.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "project.urls"
ASGI_APPLICATION = "project.asgi.application"
WSGI_APPLICATION = "project.wsgi.application"

# Each worker process gets its own pool of DB_POOL connections (docs/fairness.md).
_POOL_SIZE = env.db_pool()

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": env.value("PGDATABASE"),
        "USER": env.value("PGUSER"),
        "PASSWORD": env.value("PGPASSWORD"),
        "HOST": env.value("PGHOST"),
        "PORT": env.value("PGPORT"),
        "OPTIONS": {"pool": {"min_size": _POOL_SIZE, "max_size": _POOL_SIZE}},
    }
}

# Fortunes: Django's own template engine, templates from each app's templates/ folder.
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]

# cached: Django's in-process cache, holding every world row without expiry or culling.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }
}

SESSION_ENGINE = "django.contrib.sessions.backends.db"

# STATIC_DIR plays the part of collectstatic's output; WhiteNoise indexes it at start-up.
STATIC_URL = "static/"
STATIC_ROOT = env.value("STATIC_DIR")

# upload: request.body raises RequestDataTooBig (a 400) past this many bytes (Django's settings docs,
# DATA_UPLOAD_MAX_MEMORY_SIZE); its default is 2.5 MB.
DATA_UPLOAD_MAX_MEMORY_SIZE = upload.MAX_BODY

# Read from disk on every hash request (see hello/views.py).
HASH_FILE = env.value("HASH_FILE")

USE_TZ = True
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
