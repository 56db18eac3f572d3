from django.urls import path

from playground import views

urlpatterns = [
    path("", views.index, name="index"),
    path("healthz", views.healthz, name="healthz"),
    path("status", views.status_badge, name="status-badge"),
]
