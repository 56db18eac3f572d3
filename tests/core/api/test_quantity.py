import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler_core.api.errors import QuantityError
from scheduler_core.api.quantity import (
    FORMAT_ERROR,
    format_bytes,
    format_milli_cpu,
    format_quantity,
    milli_value,
    value,
)


@pytest.mark.parametrize(
    ("text", "millis"),
    [
        ("500m", 500),
        ("1.5", 1500),
        ("2", 2000),
        ("0.1", 100),
        ("0.1m", 1),  # rounds up, as MilliValue() does
        ("2e3", 2_000_000),
        ("1k", 1_000_000),
        (".5", 500),
        ("100u", 1),
        (1, 1000),
        (0.25, 250),  # an unquoted YAML float
    ],
)
def test_cpu_is_read_in_millicores_rounded_up(text, millis):
    assert milli_value(text) == millis


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("128Mi", 128 * 2**20),
        ("1G", 10**9),
        ("1Ki", 1024),
        ("1.5Gi", 3 * 2**29),
        ("32Gi", 32 * 2**30),
        ("110", 110),
        ("1e3", 1000),
        ("1E3", 1000),
        ("1500m", 2),  # Value() rounds up
        ("1M", 10**6),
        ("+5", 5),
        ("-1", -1),
    ],
)
def test_memory_and_counts_are_read_as_integers_rounded_up(text, amount):
    assert value(text) == amount


@pytest.mark.parametrize(
    "text", ["", "abc", "1Kb", "1.2.3", "Mi", "--1", "1 Gi x", "1e", "5iB", True, None, "1" * 65, [1], {"a": 1}]
)
def test_malformed_quantities_are_refused(text):
    for _ in range(2):  # the second time too: values are remembered, refusals are not
        with pytest.raises(QuantityError):
            value(text)
        with pytest.raises(QuantityError):
            milli_value(text)


def test_remembered_values_keep_their_type_apart():
    assert (milli_value(1), milli_value(1.0), milli_value("1")) == (1000, 1000, 1000)
    with pytest.raises(QuantityError):
        milli_value(True)  # hashes as 1, and is no quantity
    assert (value("1500m"), milli_value("1500m")) == (2, 1500)  # one text, two scales


def test_malformed_quantity_message_is_upstreams():
    with pytest.raises(QuantityError, match=r"quantities must match the regular expression"):
        value("ten")
    assert "^([+-]?[0-9.]+)" in FORMAT_ERROR


def test_huge_exponents_are_refused_quickly_not_computed():
    with pytest.raises(QuantityError):
        value("1e999999999")


def test_formatting_matches_kubectl():
    # resource.Quantity's canonical String(): what kubectl prints for the value of each text.
    assert format_milli_cpu(2000) == "2"
    assert format_milli_cpu(1500) == "1500m"
    assert format_milli_cpu(1_000_000) == "1k"  # MustParse("1000").String() for a thousand cores
    assert format_bytes(128 * 2**20) == "128Mi"
    assert format_bytes(1000) == "1k"  # MustParse("1000") is DecimalSI: "1k"
    assert format_bytes(1536) == "1536" and format_bytes(1536 * 2**10) == "1536Ki"
    assert format_bytes(500 * 10**6) == "500M"
    assert format_bytes(32817148 * 2**10) == "32817148Ki"  # a kubelet's memory capacity, as reported
    assert [format_quantity(name, 1000) for name in ("pods", "requests.cpu", "requests.memory")] == ["1k", "1", "1k"]
    assert format_quantity("hugepages-2Mi", 4 * 2**20) == "4Mi"


@given(st.integers(min_value=0, max_value=2**62))
def test_printed_quantities_read_back_as_the_same_amount(amount):
    for name in ("memory", "pods", "ephemeral-storage"):
        assert value(format_quantity(name, amount)) == amount
    assert milli_value(format_milli_cpu(amount)) == amount


@given(st.integers(min_value=0, max_value=10**12))
def test_whole_numbers_round_trip_through_every_binary_suffix(n):
    for suffix, factor in (("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30)):
        assert value(f"{n}{suffix}") == n * factor
