from django.urls import path

from hello import views

urlpatterns = [
    path("plaintext", views.plaintext),
    path("async", views.async_),
    path("json", views.json_),
    path("db", views.db),
    path("session", views.session),
    path("hash", views.hash_),
    path("queries", views.queries),
    path("updates", views.updates),
    path("fortunes", views.fortunes),
    path("cached-queries", views.cached_queries),
    path("json-comp", views.json_comp),
    path("upload", views.upload_body),
    path("items", views.ItemCollection.as_view()),
    path("items/<int:item_id>", views.ItemDetail.as_view(), name="item"),
]
