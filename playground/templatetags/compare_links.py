"""What the run panel needs to offer a comparison: the run started before this one."""

from django import template

from playground.models import Run

register = template.Library()


@register.simple_tag
def previous_run(run: Run) -> Run | None:
    """The run of the same scenario started just before `run` (whatever its version), or None."""
    return Run.objects.filter(scenario_id=run.scenario_id, pk__lt=run.pk).order_by("-pk").first()
