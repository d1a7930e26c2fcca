"""The quantity layer on real phrasings: each stated value as an interval in the comparison unit
of its dimension (°C for temperatures, SI base units otherwise)."""

from __future__ import annotations

import math

import pytest

from vidsleuth.values import convert, normalise, read_values, same_value

INF = math.inf


@pytest.mark.parametrize("text, dimension, form, lo, hi", [
    ("Preheat the oven to 180 °C.", "temperature", "point", 180, 180),
    ("Roast between 350 and 375 °F.", "temperature", "range", 176.67, 190.56),
    ("Cook poultry to 165 degrees Fahrenheit.", "temperature", "point", 73.89, 73.89),
    ("Print the nozzle at 200–220 °C.", "temperature", "range", 200, 220),
    ("The hotend is rated up to 260 °C.", "temperature", "upper", -INF, 260),
    ("Keep the freezer at -18 °C.", "temperature", "point", -18, -18),
    ("Rest the meat for at least 10 minutes.", "time", "lower", 600, INF),
    ("Clamp for no more than 2 hours.", "time", "upper", -INF, 7200),
    ("Let it cool for about half an hour.", "time", "approx", 1620, 1980),
    ("Bake roughly 40 min.", "time", "approx", 2160, 2640),
    ("Steep 5 ± 1 minutes.", "time", "approx", 240, 360),
    ("Proof from 2 to 3 hours.", "time", "range", 7200, 10800),
    ("Saddle height between 100 and 120 cm.", "length", "range", 1.0, 1.2),
    ("Print at 50 mm/s for the first layer.", "speed", "point", 0.05, 0.05),
    ("Assist is cut at 25 km/h.", "speed", "point", 6.944, 6.944),
    ("A 625 Wh battery.", "energy", "point", 2.25e6, 2.25e6),
    ("Motor torque of 85 Nm.", "torque", "point", 85, 85),
    ("Tighten to 5 N·m.", "torque", "point", 5, 5),
    ("About 2000 kcal a day.", "energy", "approx", 2000 * 4184 * 0.9, 2000 * 4184 * 1.1),
    ("It costs $3,499.", "money:usd", "point", 3499, 3499),
    ("The limit will increase to $23,500 in 2025.", "money:usd", "point", 23500, 23500),
    ("Use a dough hydration of 75 percent.", "ratio", "point", 0.75, 0.75),
    ("Apply 4 to 5 coats.", "count:coat", "range", 4, 5),
    ("每天食盐不超过6克", "mass", "upper", -INF, 0.006),
    ("饮水 1500-1700 毫升", "volume", "range", 0.0015, 0.0017),
    ("每天步行八千步以上", "steps", "lower", 8000, INF),
    ("每次锻炼至少三十分钟", "time", "lower", 1800, INF),
    ("晚餐约五百千卡", "energy", "approx", 500 * 4184 * 0.9, 500 * 4184 * 1.1),
    ("骑行一百二十公里", "length", "point", 120000, 120000),
    # micrograms, as labels, captions and pages write them (µ micro sign, μ Greek mu, mcg, 微克)
    ("Take 400 mcg of folic acid a day.", "mass", "point", 4e-7, 4e-7),
    ("叶酸 400 μg/天", "mass", "point", 4e-7, 4e-7),
    ("每天补充四百微克叶酸", "mass", "point", 4e-7, 4e-7),
    ("Keep PM2.5 below 35 µg/m³.", "concentration", "upper", -INF, 3.5e-8),
    ("实测 PM2.5 : 150 μg/m3", "concentration", "point", 1.5e-7, 1.5e-7),
    ("PM2.5年均浓度不超过35微克/立方米", "concentration", "upper", -INF, 3.5e-8),
])
def test_a_stated_value_is_an_interval_in_base_units(text, dimension, form, lo, hi):
    (v,) = [x for x in read_values(text) if x.dimension == dimension]
    assert v.form == form
    for got, want in ((v.lo, lo), (v.hi, hi)):
        assert got == want if math.isinf(want) else got == pytest.approx(want, rel=1e-3), (text, v)


@pytest.mark.parametrize("spoken, written", [
    ("one hundred and twenty kilometres", "120 kilometres"),
    ("100 and 20 kilometers", "120 kilometers"),  # Whisper's split hundreds
    ("600 and 25 watt hour", "625 watt hour"),
    ("three thousand four hundred and ninety nine dollars", "3499 dollars"),
    ("two and a half hours", "2.5 hours"),
    ("a dozen eggs", "12 eggs"),
    ("brush for two full minutes", "brush for 2 minutes"),  # a word that weighs the count without changing it
    ("wait three whole days", "wait 3 days"),
    ("add two more cups", "add 2 cups"),
    ("20 more than before", "20 more than before"),  # no unit after it: a comparison, left as said
    ("no one knows", "no one knows"),  # not a number
    ("one of the best", "one of the best"),
])
def test_number_words_become_digits_and_other_words_stay(spoken, written):
    assert normalise(spoken) == written


def test_spoken_values_read_as_their_quantities():
    (km,) = read_values("we rode one hundred and twenty kilometres")
    assert (km.dimension, km.lo) == ("length", 120000)
    (wh,) = read_values("a six hundred and twenty five watt hour pack")
    assert wh.label() == "625 Wh"


def test_what_is_not_a_quantity_is_not_read():
    for text in ("the MAC address ends in 00:1a:2b:0c", "Updated 2024-03-05", "part PN-4471-B", "2024年3月更新",
                 "at 9:30 the shop opens", "no one knows"):
        assert read_values(text) == [], text


def test_points_inside_intervals_and_offset_temperatures():
    (oven,) = read_values("180 °C")
    (rng,) = read_values("between 350 and 375 °F")
    assert same_value(oven, rng)
    (f,) = read_values("446 °F")
    assert same_value(read_values("230 °C")[0], f)
    assert not same_value(oven, read_values("160 °F")[0])
    assert convert(100, "degC", "degF") == pytest.approx(212)
    (bound,) = read_values("at least 10 minutes")
    assert same_value(read_values("10 min")[0], bound)  # a bound and a figure are one statement at the bound's end
    assert not same_value(read_values("15 min")[0], bound)  # a figure inside it agrees with it (``agrees``), but is another statement
    assert not same_value(read_values("5 min")[0], bound)
    assert not same_value(read_values("0 min")[0], read_values("no more than one hour")[0])  # a misread caption
    assert same_value(read_values("3.2 kg")[0], read_values("a little over three kilos")[0])
    assert not same_value(read_values("22 kg")[0], read_values("1400 kg")[0])
    assert not read_values("85 Nm")[0].comparable(read_values("85 kcal")[0])  # torque is not energy


def test_labels_as_a_reader_writes_them():
    assert [v.label() for v in read_values("between 350 and 375 °F, at least 10 minutes, about 30 min, 50 mm/s")] == [
        "350–375°F", "≥ 10 min", "≈ 30 min", "50 mm/s"]
    assert read_values("165 °F")[0].shown_in("degC") == "73.9°C"


def test_a_judge_reads_a_stated_value_in_another_unit():
    from vidsleuth.values import states

    assert states("Bake it at 482 °F.", "250 °C") is True
    assert states("Bake between 200 and 300 °C.", "250 °C") is False  # a range is not the value
    assert states("Bake it at 446 °F.", "250 °C") is False
    assert states("The Silver Moth won.", "Silver Moth") is None  # not a value: the token judge decides


@pytest.mark.parametrize("text, want", [
    # a rate and a target joined by "to" are two values, not one range of either
    ("Ramp the kiln at 100 °C/h to 600 °C.", [("[temperature] / [time]", "point", 100 / 3600, 100 / 3600),
                                             ("temperature", "point", 600, 600)]),
    # each end of a mixed-unit range is read in its own unit
    ("Let it rise from 45 minutes to 2 hours.", [("time", "range", 2700, 7200)]),
    # unit symbols are case-sensitive: an upper-case G after a number names a model, not grams
    ("The X200 (800G) weighs 2 kg.", [("mass", "point", 2, 2)]),
    ("Add 800 g of flour.", [("mass", "point", 0.8, 0.8)]),
])
def test_mixed_units_and_symbol_case(text, want):
    got = [(v.dimension, v.form, v.lo, v.hi) for v in read_values(text)]
    assert got == [(d, f, pytest.approx(lo), pytest.approx(hi)) for d, f, lo, hi in want], text
