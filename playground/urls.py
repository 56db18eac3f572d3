from django.urls import path

from playground import views
from playground.kubeapi import views as kubeapi_views

handler500 = "playground.outage.server_error"
handler400 = "playground.views.status.bad_request"

urlpatterns = [
    path("", views.index, name="index"),
    path("healthz", views.healthz, name="healthz"),
    path("status", views.status_badge, name="status-badge"),
    path("validate", views.validate, name="validate"),
    path("scenarios/new", views.new_scenario, name="new-scenario"),
    path("mine", views.my_scenarios, name="my-scenarios"),
    path("gallery/<slug:key>", views.use_gallery, name="use-gallery"),
    path("s/<str:slug>", views.scenario_page, name="scenario"),
    path("s/<str:slug>/board", views.board_partial, name="board"),
    path("s/<str:slug>/edit", views.claim_edit, name="claim-edit"),
    path("s/<str:slug>/edit/<path:secret>", views.claim_edit_link, name="claim-edit-link"),  # the old form
    path("s/<str:slug>/fork", views.fork_scenario, name="fork-scenario"),
    path("s/<str:slug>/export.yaml", views.export_yaml, name="export"),
    path("s/<str:slug>/kubeconfig", views.kubeconfig_file, name="kubeconfig"),
    # A scenario's Kubernetes API: the kubeconfig's server (kubectl appends /api, /apis...).
    path("k8s/<str:slug>", kubeapi_views.kube_api, name="kubeapi-root"),
    path("k8s/<str:slug>/t/<str:token>", kubeapi_views.kube_api, name="kubeapi-token-root"),  # plain HTTP
    path("k8s/<str:slug>/t/<str:token>/", kubeapi_views.kube_api),
    path("k8s/<str:slug>/t/<str:token>/<path:path>", kubeapi_views.kube_api, name="kubeapi-token"),
    path("k8s/<str:slug>/<path:path>", kubeapi_views.kube_api, name="kubeapi"),
    path("s/<str:slug>/runs", views.start_run, name="start-run"),
    path("s/<str:slug>/act", views.act, name="act"),
    path("s/<str:slug>/console", views.console_command, name="console"),
    path("s/<str:slug>/console/complete", views.console_completion, name="console-complete"),
    path("s/<str:slug>/console/watch", views.console_watch, name="console-watch"),
    path("s/<str:slug>/runs/<int:run_id>/explain", views.explain_pod, name="explain-pod"),
    path("s/<str:slug>/runs/<int:run_id>/traffic", views.run_traffic, name="run-traffic"),
    path("s/<str:slug>/runs/<int:run_id>/describe-node", views.describe_node_at, name="describe-node"),
    path(
        "s/<str:slug>/runs/<int:run_id>/describe-deployment", views.describe_deployment_at, name="describe-deployment"
    ),
    path("s/<str:slug>/compare", views.compare_page, name="compare"),
    path("s/<str:slug>/runs/<int:run_id>/resume", views.resume_run, name="resume-run"),
    path("s/<str:slug>/details", views.save_details, name="save-details"),
    path("s/<str:slug>/palette", views.edit_palette, name="edit-palette"),
    path("s/<str:slug>/workload", views.save_workload, name="save-workload"),
    path("s/<str:slug>/workload.yaml", views.workload_text, name="workload-text"),
    path("s/<str:slug>/nodes", views.add_node, name="add-node"),
    path("s/<str:slug>/import", views.import_cluster, name="import-cluster"),
    path("s/<str:slug>/import/progress/<str:token>", views.import_progress_view, name="import-progress"),
    path("s/<str:slug>/nodes/template", views.add_nodes_from_template, name="add-nodes-template"),
    path("s/<str:slug>/nodes/<int:node_id>/<slug:action>", views.node_action, name="node-action"),
    path("v/<str:permalink>", views.version_page, name="version"),
    path("v/<str:permalink>/fork", views.fork_version, name="fork-version"),
    path("v/<str:permalink>/workload.yaml", views.version_workload, name="version-workload"),
    path("embed/<str:permalink>", views.embed, name="embed"),
]
