"""Readings that hang on a word away from the number: a minimum's label, a rating written before
its number (SPF), an ounce of a liquid, a temperature said without its scale against a Celsius row."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vidsleuth.report.facts import agrees
from vidsleuth.values import read_values, same_value


@pytest.mark.parametrize("text, lo, hi, form, shown", [
    ("Min. night temp 10 °C", 10, float("inf"), "lower", "≥ 10°C"),
    ("Minimum room temperature: 18 °C", 18, float("inf"), "lower", "≥ 18°C"),
    ("最低夜温10℃", 10, float("inf"), "lower", "≥ 10°C"),
    ("最低可在零下3℃使用", -3, -3, "point", "-3°C"),  # "can be used down to": a statement of use, not a label
    ("Max runtime 40 min", 2400, 2400, "point", "40 min"),  # a spec sheet's rated figure
    ("SPF 30+", 30, float("inf"), "lower", "≥ SPF 30"),
    ("Use at least SPF 30 every day.", 30, float("inf"), "lower", "≥ SPF 30"),
    ("an SPF of 15", 15, 15, "point", "SPF 15"),
    ("Broad spectrum SPF 30 or higher", 30, float("inf"), "lower", "≥ SPF 30"),
    ("choose an SPF of at least 30", 30, float("inf"), "lower", "≥ SPF 30"),  # the bound between scale and number
    ("a pad with an R-value of at least 5", 5, float("inf"), "lower", "≥ R-value 5"),  # an insulation rating
    ("Sleeping pad R-value: 4.5", 4.5, 4.5, "point", "R-value 4.5"),
    ("pH: 7.4", 7.4, 7.4, "point", "pH 7.4"),  # a label's colon
])
def test_labels_and_ratings(text, lo, hi, form, shown):
    v = read_values(text)[0]
    assert (v.lo, v.hi, v.form, v.label()) == (lo, hi, form, shown)


def test_an_ounce_beside_a_volume_is_a_fluid_ounce():
    oz, ml = read_values("you need about one ounce")[0], read_values("Whole body = 30 mL")[0]
    assert oz.dimension == "mass" and same_value(oz, ml) and agrees(ml, oz)
    assert not same_value(read_values("4 oz of flour")[0], read_values("150 g of flour")[0])  # a mass stays a mass
    assert not agrees(read_values("about 60 mL")[0], oz)


def test_degrees_without_a_scale_meet_a_celsius_row_as_fahrenheit():
    soil = read_values("once the soil has warmed to 60 degrees")[0]
    assert agrees(read_values("| Tomato | 16 °C |")[0], soil)
    assert not agrees(read_values("| Tomato | 25 °C |")[0], soil)
    water = read_values("heat the water to 96 degrees")[0]
    assert not agrees(read_values("never above 92 °C")[0], water)  # an open bound proves no Fahrenheit reading


@pytest.mark.parametrize("text, shown", [
    ("Have it tuned twice a year.", "2×/year"), ("at least twice a year", "≥ 2×/year"),
    ("three times a week", "3×/week"), ("Feed them 3 times per day", "3×/day"),
    ("每周三次", "3×/week"), ("一天两次", "2×/day"),
])
def test_a_count_of_times_per_period_is_a_frequency(text, shown):
    (v,) = read_values(text)
    assert v.dimension == "frequency" and v.label() == shown


@pytest.mark.parametrize("source, holds", [
    ("every 6 months", True), ("twice a year", True), ("once a year is plenty", False), ("every 3 months", False),
])
def test_a_frequency_meets_a_period_as_the_period_it_implies(source, holds):
    video = read_values("Have it tuned twice a year.")[0]
    assert agrees(read_values(source)[0], video) is holds
    assert agrees(read_values(source)[0], read_values("at least twice a year")[0]) is holds  # the same bound, or none


def test_a_temperature_bound_is_one_statement_with_a_point_only_at_its_end():
    minimum = read_values("Min. night temp 10 °C")[0]
    assert not same_value(minimum, read_values("once the soil has warmed to 60 degrees")[0])
    assert same_value(minimum, read_values("nights of 10 degrees")[0])
    assert same_value(read_values("at least 40 minutes")[0], read_values("45 minutes")[0])  # other kinds: inside is one


@pytest.mark.parametrize("text, shown", [
    ("每500克肉用盐15克", "30 g/kg"), ("每1000毫升水加盐9克", "9 g/L"), ("每公斤肉放盐三十克", "30 g/kg"),
])
def test_a_chinese_rate_with_a_number_before_its_denominator_is_per_one(text, shown):
    assert [v.label() for v in read_values(text)] == [shown]


@pytest.mark.parametrize("text, label", [
    ("17 kWh/100 km", "17 kWh/100 km"),  # an EV's consumption: energy per distance, not an energy
    ("consumption came in at 17 kilowatt hours per hundred kilometres", "17 kWh/100 km"),
    ("6 L/100 km", "6 L/100 km"),  # a car's fuel use, not a volume
    ("5 minutes per km", "5 min/km"),  # a pace, as "5:30 per km" is
])
def test_consumption_per_distance_is_one_value(text, label):
    assert [v.label() for v in read_values(text)] == [label]
    assert not read_values(text)[0].comparable(read_values("17 kWh")[0])


@pytest.mark.parametrize("text, label", [
    ("fasting glucose below 5.6 mmol/L", "≤ 5.6 mmol/L"),  # a clinical molar concentration
    ("血糖控制在4.4到7.0毫摩尔每升", "4.4–7 mmol/L"),
    ("100 mg/dL", "100 mg/dL"),
])
def test_clinical_concentrations(text, label):
    (v,) = read_values(text)
    assert v.label() == label
    assert not read_values("5.6 mmol/L")[0].comparable(read_values("100 mg/dL")[0])  # no molar mass to convert by


@given(st.integers(0, 20), st.sampled_from(["times a day", "times a week", "次", "times per month"]),
       st.integers(0, 500), st.sampled_from(["minutes", "hours", "days", "weeks"]))
def test_any_count_per_period_meets_any_duration_without_raising(n, per, m, unit):
    # "每天0次" (none a day) beside "2 hours" once divided by zero and crashed a whole report
    freq = read_values(f"每天{n}次" if per == "次" else f"{n} {per}")
    span = read_values(f"{m} {unit}")
    for a in freq:
        for b in span:
            assert isinstance(same_value(a, b), bool) and isinstance(agrees(a, b), bool)
    if n == 0 and freq and span:
        assert not same_value(freq[0], span[0])  # no period meets "never"
