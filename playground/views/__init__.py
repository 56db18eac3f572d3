"""Pages and htmx partials. Thin: the board and scenario modules do the work, the engine knows
Kubernetes, templates render. Every form works without JavaScript too (a full page comes back)."""

from playground.views.comparing import compare_page
from playground.views.editing import (
    add_node,
    add_nodes_from_template,
    edit_palette,
    import_cluster,
    import_progress_view,
    node_action,
    save_details,
    save_workload,
    workload_text,
)
from playground.views.pages import (
    board_partial,
    claim_edit,
    claim_edit_link,
    embed,
    export_yaml,
    fork_scenario,
    fork_version,
    index,
    my_scenarios,
    new_scenario,
    scenario_page,
    use_gallery,
    validate,
    version_page,
    version_workload,
)
from playground.views.running import act, explain_pod, resume_run, run_traffic, start_run
from playground.views.status import healthz, status_badge

__all__ = [
    "act",
    "add_node",
    "add_nodes_from_template",
    "board_partial",
    "claim_edit",
    "claim_edit_link",
    "compare_page",
    "edit_palette",
    "embed",
    "explain_pod",
    "export_yaml",
    "fork_scenario",
    "fork_version",
    "healthz",
    "import_cluster",
    "import_progress_view",
    "index",
    "my_scenarios",
    "new_scenario",
    "node_action",
    "resume_run",
    "run_traffic",
    "save_details",
    "save_workload",
    "scenario_page",
    "start_run",
    "status_badge",
    "use_gallery",
    "validate",
    "version_page",
    "version_workload",
    "workload_text",
]
