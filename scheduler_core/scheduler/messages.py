"""Message texts the scheduler shows users, as upstream writes them (Kubernetes v1.34).

pkg/scheduler/framework/types.go (FitError), pkg/scheduler/schedule_one.go (events).
"""

NO_NODE_AVAILABLE = "0/{} nodes are available"
SEPARATOR = " {}."
NO_NODES_AVAILABLE_TO_SCHEDULE = "no nodes available to schedule pods"
SUCCESSFULLY_ASSIGNED = "Successfully assigned {}/{} to {}"


def fit_error_message(
    num_all_nodes: int, reasons: dict[str, int], pre_filter_message: str = "", post_filter_message: str = ""
) -> str:
    """FitError.Error(): the reason histogram sorted as strings ("1 node(s)..." before "4 Insufficient cpu"),
    then the PostFilter text as it is (it brings its own punctuation)."""
    message = NO_NODE_AVAILABLE.format(num_all_nodes) + ":"
    if pre_filter_message:
        message += SEPARATOR.format(pre_filter_message)
    else:
        histogram = sorted(f"{count} {reason}" for reason, count in reasons.items())
        if histogram:
            message += SEPARATOR.format(", ".join(histogram))
    if post_filter_message:
        message += " " + post_filter_message
    return message
