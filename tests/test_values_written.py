"""Values as people type them on pages and captions: Unicode fractions, a scale letter with no degree
sign, areas in square feet, light in µmol/m²/s and mol/m²/d, bounds closed by "or colder"/"or lower".
Each case states the interval it must read (in the comparison unit of its dimension)."""

from __future__ import annotations

import math

import pytest

from vidsleuth.values import read_values


def _one(text: str):
    values = read_values(text)
    assert len(values) == 1, (text, values)
    return values[0]


@pytest.mark.parametrize("text, dimension, lo, hi", [
    ("Use 1½ to 2 inches of gravel.", "length", 0.0381, 0.0508),
    ("Give 3½ cups a day.", "volume", 3.5 * 236.588e-6, 3.5 * 236.588e-6),
    ("Mix ½ cup of sugar.", "volume", 118.294e-6, 118.294e-6),
    ("Add 1 ¾ tsp of salt.", "volume", 1.75 * 4.92892e-6, 1.75 * 4.92892e-6),
    ("Smoke it at 225F until it is done.", "temperature", 107.222, 107.222),
    ("Preheat the oven to 180C.", "temperature", 180.0, 180.0),
    ("Pull it at 145 F.", "temperature", 62.778, 62.778),
    ("Allow 4 square feet per bird.", "area", 0.371612, 0.371612),
    ("Hens need 10 sq ft of run each.", "area", 0.929030, 0.929030),
    ("Aim for a PPFD of 200–400 µmol/m²/s.", "photon flux density", 200e-6, 400e-6),
    ("A DLI of 12 mol/m²/d is plenty for lettuce.", "daily light integral", 12.0, 12.0),
])
def test_written_forms_read_as_intervals(text, dimension, lo, hi):
    v = _one(text)
    assert v.dimension == dimension
    assert math.isclose(v.lo, lo, rel_tol=1e-3) and math.isclose(v.hi, hi, rel_tol=1e-3)


@pytest.mark.parametrize("text, form, end", [
    ("Set the freezer to 0 °F or colder.", "upper", -17.778),
    ("Keep it at 40°F or lower.", "upper", 4.444),
    ("Ferment at 24 °C or warmer.", "lower", 24.0),
])
def test_bounds_closed_after_the_value(text, form, end):
    v = _one(text)
    assert v.form == form
    assert math.isclose(v.hi if form == "upper" else v.lo, end, rel_tol=1e-3)
    assert (v.lo if form == "upper" else v.hi) in (float("-inf"), float("inf"))


@pytest.mark.parametrize("text", ["Use 2 C batteries.", "MAC AA:0C:12:9F", "Colour #3F3F3F", "Plan B and section 4B"])
def test_a_scale_letter_needs_a_number_of_its_own(text):
    assert not [v for v in read_values(text) if v.dimension == "temperature"]


def test_a_daily_light_integral_is_not_a_momentary_flux():
    dli, ppfd = _one("12 mol/m²/d"), _one("200 µmol/m²/s")
    assert not dli.comparable(ppfd)


@pytest.mark.parametrize("text, labels", [
    ("Each hen eats roughly a quarter pound of feed a day.", ["≈ 0.25 lb"]),  # the day is the amount's period
    ("Add a half cup of starter tea.", ["0.5 cup"]),
    ("Zone 2 sits at 56 to 75 percent of your FTP.", ["56–75%"]),  # a zone's number counts nothing
    ("The pH should be 4.5 or below before you bottle.", ["≤ pH 4.5"]),
    ("A reading of 130/80 mmHg or higher is high.", ["≥ 130 mmHg", "≥ 80 mmHg"]),  # the bound is of both pressures
    ("Wash it in water no warmer than 30 °C.", ["≤ 30°C"]),
    ("Keep it no colder than 4 °C.", ["≥ 4°C"]),
    ("Rest it longer than 10 minutes.", ["≥ 10 min"]),
    ("Never store it colder than 5 °C.", ["≥ 5°C"]),  # a negated comparative is the opposite bound
])
def test_comparatives_fractions_and_named_numbers(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_blood_pressure_is_a_pressure():
    systolic = read_values("130/80 mmHg")[0]
    assert systolic.dimension == "pressure" and math.isclose(systolic.lo, 17331.9, rel_tol=1e-3)


@pytest.mark.parametrize("text, labels", [
    ("Every day I dose ammonia to two parts per million.", ["2 ppm"]),  # text2num alone made it "per 1000000"
    ("Keep it under 0.5 parts-per-million.", ["≤ 0.5 ppm"]),
])
def test_parts_per_million_is_a_unit(text, labels):
    assert [v.label() for v in read_values(text)] == labels


@pytest.mark.parametrize("text, labels", [
    ("Set your ISO to 3200.", ["ISO 3200"]),  # a camera's speed, written before its number like pH
    ("at ISO 1600–6400", ["ISO 1600–6400"]),
    ("The lab is ISO 9001 certified.", []),  # a standard's number, not one of the speeds
    ("Open the lens as wide as it goes, ideally F2.8.", ["f/2.8"]),
    ("anything from f/2.8 to f/4", ["f/2.8–4"]),
    ("Press the F8 key.", []),  # a bare F and a whole number is a key, a class, a model
    ("White balance: 3900 K", ["3900 K"]),  # four digits before K: kelvin, never thousands
    ("a 5600K daylight lamp", ["5600 K"]),
    ("Fridge: 37 °F / 3 °C", ["37°F", "3°C"]),  # no f-number inside a temperature
    ("Off-peak: 9p per kWh", ["£0.09"]),  # pence before a rate
    ("a 1080p screen", []),
    ("Plan on two full coats for any colour change.", ["2 coats"]),  # "two" counting a plural noun
    ("Just the two of us.", []),
])
def test_photography_scales_pence_and_a_counted_two(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_colour_temperature_is_no_thermometer_reading():
    kelvin, oven = read_values("3900 K")[0], read_values("180 °C")[0]
    assert kelvin.dimension == "colour temperature" and not kelvin.comparable(oven)


@pytest.mark.parametrize("text, labels", [
    ("Put down one pound of nitrogen per thousand square feet.", ["1 lb/1,000 ft²"]),
    ("Annual totals are 2 to 4 pounds of nitrogen per 1,000 square feet.", ["2–4 lb/1,000 ft²"]),
    ("Spread 0.5 kg per 100 m².", ["0.5 kg/100 m²"]),
])
def test_a_rate_over_an_amount_of_its_denominator(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_rate_over_an_amount_meets_the_same_rate_in_other_words():
    per_thousand, per_foot = read_values("1 lb per 1,000 sq ft")[0], read_values("0.001 lb per sq ft")[0]
    assert per_thousand.comparable(per_foot) and per_thousand.lo == pytest.approx(per_foot.lo)


@pytest.mark.parametrize("text, labels", [
    ("And it should save you around 350 pounds a year on your heating bills.", ["≈ £350"]),  # saved pounds are money
    ("Expect savings of 250 to 400 pounds a year.", ["£250–400"]),
    ("A roof with a U-value of 0.16 W/m²K.", ["0.16 W/m²K"]),
])
def test_saved_pounds_and_a_u_value(text, labels):
    assert [v.label() for v in read_values(text)] == labels


@pytest.mark.parametrize("text, labels", [
    ("Meet the Dji Mini 4 Pro.", []),  # a number between two capitalised words is a product's name
    ("DJI rates the Mini 4 Pro at 34 minutes.", ["34 min"]),
    ("Apply 3 Coats", ["3 coats"]),  # a title-case caption still counts its plural
])
def test_a_model_name_counts_nothing(text, labels):
    assert [v.label() for v in read_values(text)] == labels


@pytest.mark.parametrize("text, labels", [
    ("The charger needs a circuit rated for its 32 A maximum current.", ["≤ 32 A"]),  # a capital A is an ampere
    ("a 16A breaker", ["16 A"]),
    ("twice a day", ["2×/day"]),  # a lower-case a stays an article
    ("Most home circuits are protected by 10–16 A breakers.", ["10–16 A"]),  # the unit after a range's second number
    ("from 16 A to 32 A", ["16–32 A"]),
    ("a clamping force between 6 and 10 N", ["6–10 N"]),
])
def test_an_ampere_written_as_a_capital_a(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_figure_of_one_significant_digit_is_a_rounded_one():
    """A presenter's "7 kW" is the 7.4 kW a wallbox is rated at; "72 kW" is stated to its digits."""
    from vidsleuth.report.facts import agrees

    rated = read_values("7.4 kW")[0]
    assert agrees(rated, read_values("7 kW")[0]) and agrees(read_values("550 m")[0], read_values("500 m")[0])
    assert not agrees(read_values("75 kW")[0], read_values("72 kW")[0])
    assert not agrees(read_values("11 kW")[0], read_values("7 kW")[0])


@pytest.mark.parametrize("text, labels", [
    ("For an outdoor slab, keep the water to cement ratio at 0.45.", ["1:0.45"]),  # one quotient: water per cement
    ("Water : cement = 0.45", ["1:0.45"]),
    ("Whenever the UV index is 3 or higher, wear it.", ["≥ UV index 3"]),  # an index written before its number
    ("Buoyancy aid: 50 N minimum", ["≥ 50 N"]),  # a capital N at its number is a newton
    ("Max depth:18m", ["18 m"]),  # OCR glues a label's colon to its figure
    ("rated for about 500 full-charge cycles before it wears", ["≈ 500 cycles"]),  # a hyphenated adjective
    ("9:06.920", []),  # a test pattern's running clock is no ratio
])
def test_quotients_indexes_newtons_and_glued_labels(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_water_cement_quotient_meets_its_inverse():
    assert read_values("a cement to water ratio of 2.2")[0].lo == pytest.approx(
        read_values("keep the water to cement ratio at 0.45")[0].lo, rel=0.02)


@pytest.mark.parametrize("text, labels", [
    ("最大心率≈190次/分", ["≈ 190×/min"]),  # times per minute: a frequency, as 每分钟150次 is
    ("心率130次/分钟", ["130×/min"]),
    ("做3组，每组12次", ["12 次"]),  # 每组 is per set, no period
])
def test_chinese_times_per_period_are_a_frequency(text, labels):
    assert [v.label() for v in read_values(text)] == labels


@pytest.mark.parametrize("text, labels", [
    ("A weighted gauge canner runs at 10 pounds per square inch.", ["10 psi"]),
    ("Switch to 15 pounds of pressure.", ["15 psi"]),  # how canners say psi
    ("10 PSl", ["10 psi"]),  # OCR reads the I of PSI as an l
    ("assume a cruising speed of about three knots", ["≈ 3 kn"]),  # a speed, not a count of knots
    ("a 4 pound roast", ["4 lb"]),
])
def test_pressure_in_pounds_and_speed_in_knots(text, labels):
    assert [v.label() for v in read_values(text)] == labels
