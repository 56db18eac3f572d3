"""Errors in a scheduler configuration name its line, also those a plugin finds in its args when
the scheduler is built (long after parsing), as kube-scheduler refuses the file at start-up."""

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.scheduler.config import parse_configuration
from scheduler_core.scheduler.schedule_one import Scheduler

HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"


def refusal(profile: str) -> ManifestError:
    configuration = parse_configuration(HEAD + profile)
    with pytest.raises(ManifestError) as refused:
        Scheduler(configuration)
    return refused.value


def test_a_plugins_args_are_located_at_their_deepest_field():
    error = refusal(
        "- pluginConfig:\n"  # 4
        "  - name: NodeResourcesFit\n"  # 5
        "    args:\n"  # 6
        "      scoringStrategy:\n"  # 7
        "        type: FewestPods\n"  # 8
    )
    assert error.path == "pluginConfig[NodeResourcesFit].args.scoringStrategy.type"
    assert error.line == 8 and "FewestPods" in error.message


def test_an_argument_out_of_range_is_located_at_its_own_line():
    error = refusal(
        "- pluginConfig:\n"  # 4
        "  - name: InterPodAffinity\n"  # 5
        "    args:\n"  # 6
        "      hardPodAffinityWeight: 1000\n"  # 7
    )
    assert error.path.startswith("pluginConfig[InterPodAffinity].args") and error.line == 7


@pytest.mark.parametrize(
    ("plugins", "line", "words"),
    [
        ("    score:\n      enabled:\n      - {name: Bogus}\n", 7, 'plugin "Bogus" does not exist'),
        ("    bind:\n      enabled:\n      - {name: NodeAffinity}\n", 7, "does not extend bind"),
    ],
)
def test_a_plugin_named_wrongly_is_located_by_its_name(plugins: str, line: int, words: str):
    error = refusal("- plugins:\n" + plugins)
    assert error.line == line and words in error.message


def test_the_default_profile_has_no_refusal():
    Scheduler(parse_configuration(HEAD + "- schedulerName: default-scheduler\n"))
