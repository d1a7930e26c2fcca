"""Relation labels by principle (``report.relate``): what an experienced researcher expects of any
page, on small generated cases (no set's text)."""

from vidsleuth.report.relate import comparison_page, relate_rules
from vidsleuth.report.types import Anchor, Moment


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 4.0, "speech", text),))


def _rel(anchor_text: str, excerpt: str, **kw) -> str | None:
    return relate_rules(_anchor(anchor_text), excerpt, **kw)[0]


# a page that compares things sets the video's value beside the alternatives, whatever it says of it


def test_a_value_on_a_page_that_compares_things_is_set_beside_them():
    row, head = "| Weight (g) | 310 | 295 |", "|  | Trailfox 2 | Ridgeback R |"
    assert _rel("The Trailfox 2 weighs 310 grams.", row, context=head) == "supports"
    assert _rel("The Trailfox 2 weighs 310 grams.", row, context=head, title="Trailfox 2 vs Ridgeback R") == "compares"
    prose = "The Trailfox 2 tent weighs 310 g with its poles."
    assert _rel("The Trailfox 2 weighs 310 grams.", prose, title="Ultralight tents compared | Camp Lab") == "compares"
    assert _rel("电饭煲煮饭大约需要四十分钟。", "电饭煲煮饭约40分钟。", title="电饭煲与高压锅对比") == "compares"


def test_a_comparison_title_is_told_from_an_ordinary_one():
    assert comparison_page("Gas vs induction hobs") and comparison_page("What's the difference between A and B?")
    assert comparison_page("韩式泡菜和四川泡菜有什么不同？")
    assert not comparison_page("How to season a cast-iron pan") and not comparison_page("")


def test_a_revision_on_a_comparison_page_still_updates():
    assert _rel("Charge it for 4 hours.", "We now recommend charging for 3 hours.", title="Charger A vs charger B") == "updates"


# a reason or a mechanism around a value that holds the video's explains it


def test_a_reason_around_an_agreeing_value_explains_it():
    assert _rel("Rest the dough for 30 minutes.",
                "A 30-minute rest lets the gluten relax, which is why the rolled sheet stays put.") == "explains"
    assert _rel("发酵两天。", "乳酸菌在室温下把糖变成乳酸，这就是面团需要放置两天的原因。") == "explains"


def test_what_follows_below_the_videos_threshold_explains_it():
    claim = "Keep the greenhouse at least 12 degrees Celsius at night."
    assert _rel(claim, "Below 12 °C, seedlings stop growing and their leaves turn yellow.") == "explains"
    # an instruction after the condition is a rule, not a mechanism
    assert _rel(claim, "Below 12 °C, close the vents and wait until morning.") != "explains"


def test_a_reason_that_judges_the_value_wrong_is_no_explanation():
    assert _rel("Clamp for 20 minutes.", "20 minutes is far too short because the glue needs 2 hours to set.") == "contradicts"


def test_there_is_enough_is_not_a_rejection():
    assert _rel("Use 60% water.", "At 60% water there is enough moisture for the crumb to open up.") == "supports"


# a value the source judges wrong, or calls someone's claim beside a figure of its own, is against the video


def test_a_value_judged_wrong_is_rejected_in_both_languages():
    assert _rel("A chain lasts about 800 kilometres.", "800 km on one chain is fantasy on gritty roads.") == "contradicts"
    assert _rel("滤芯每三年更换一次。", "滤芯三年才换的话太晚了，我家的早就堵了。") == "contradicts"


def test_a_claimed_figure_beside_the_sources_own_is_someone_elses():
    claim = "The lamp runs for 12 hours on one charge."
    assert _rel(claim, "The claimed runtime is 12 hours but in our test it lasted about 8 hours.") == "contradicts"
    assert _rel(claim, "In our test it lasted between 7 and 8 hours, well short of the 12 hours claimed.") == "contradicts"
    assert _rel(claim, "The claimed runtime is 12 hours.") == "supports"  # a claim alone is the figure the page gives


# a revision that names the video's value as the former one updates it


def test_a_former_value_named_after_it_is_revised():
    assert _rel("Let the joint cure for 2 hours.",
                "The 2-hour cure in earlier editions of this guide left joints weak; allow 4 hours.") == "updates"
    assert _rel("Soak the seeds for 7 days.", "We now advise 10 days; 7 days was our previous figure.") == "updates"
    assert _rel("滤芯每一年更换一次。", "我们现在建议每6个月更换一次滤芯，不再建议一年更换一次。") == "updates"


def test_a_new_rating_updates_without_a_date():
    assert _rel("The cartridge is rated for 500 litres.", "After new tests we now rate the cartridge at 400 litres.") == "updates"


# a period a repeated action is done at meets the source's periods, not a duration beside them


def test_a_period_meets_the_sources_periods_not_a_duration():
    assert _rel("每两周施一次肥。", "生长季每10–15天施肥一次；移栽后一周内不要施肥。") == "supports"
    assert _rel("Water the tray every 3 days.",
                "Water every 2–4 days; after sowing, keep the tray covered for 1 day.") == "supports"


# a worked calculation on the video's value applies it


def test_a_worked_calculation_applies_the_value():
    assert _rel("The heater draws 2 kW.", "At 2 kW for 3 hours a day, it uses 2 × 3 = 6 kWh daily.") == "applies"
    assert _rel("The heater draws 2 kW.", "The heater draws 2 kW from a 13 A socket.") == "supports"


# a page's date: an ordinal day is a day ("Posted on 3rd of May, 2023"); a title's year is no date


def test_a_dated_line_with_an_ordinal_day_dates_the_page():
    from vidsleuth.report.sources.dates import dates_in

    assert dates_in("Posted on 3rd of May, 2023 by Ann") == ["2023-05-03"]
    assert dates_in("Updated June 1st, 2024") == ["2024-06-01"]
    assert dates_in("Best kettles (2024)", title="Best kettles (2024)") == []


# a word that names the video's own quantity is no change of it ("heel-to-toe drop 8 mm" for an 8 mm drop)


def test_the_quantity_the_video_names_is_no_difference():
    claim = "The shoe has an 8 mm heel-to-toe drop."
    assert _rel(claim, "Specs: heel-to-toe drop 8 mm, heel stack 36 mm, weight 250 g.") == "supports"
    assert _rel("Set the tyres to 30 psi.", "Drop 5 psi for wet roads.") is None  # a change, not a setting


# the value before an arrow is where a change started ("15 °C → 60 °C", "£14.99 → £12.99")


def test_the_value_before_an_arrow_is_where_a_change_started():
    assert _rel("Set the water heater to 60 degrees Celsius.", "Heating time (15 °C → 60 °C): about 90 minutes.") == "supports"
    assert _rel("It costs £14.99.", "Price now £14.99 → £12.99.") == "updates"


def test_a_conversion_or_a_preference_is_no_calculation_or_revision():
    assert _rel("Inflate to 2 bar.", "2 bar = 29 psi, the usual pressure for this tyre.") == "supports"
    assert _rel("Bake it for 30 minutes.", "I bake mine for 40 minutes instead of 30 and the crust is better.") != "updates"


# a statement of what a figure is now is a revision of it, a limit it is now held to included


def test_what_a_figure_is_now_revises_it():
    assert _rel("The scooter costs £649.", "The price has changed: it is now £599 at every retailer.") == "updates"
    assert _rel("The top speed is 25 km/h.", "Top speed is now limited to 20 km/h on public roads.") == "updates"
    assert _rel("The top speed is 25 km/h.", "The motor is now quieter and the top speed is 25 km/h.") == "supports"
    assert _rel("Set the nozzle to 210 °C.", "Maximum nozzle temperature: 260 °C.") is None  # a ceiling, not a revision
    assert _rel("The cable is 3 metres long.", "Kettles from the current production batch ship with a 2.5 m cable.") == "updates"
    assert _rel("The cable is 3 metres long.", "After a design change the base now has a 2.5 m cable.") == "updates"


# a maximum the video's approximate figure quotes is the spec; a spacing the video also states is no offset


def test_a_rated_maximum_near_the_videos_approximate_figure_is_its_spec():
    assert _rel("I got about forty-one minutes per charge.", "Max runtime 40 min") == "supports"
    assert _rel("Print the nozzle at 210 °C.", "Maximum nozzle temperature: up to 260 °C.") is None  # a ceiling beside a setting


def test_a_spacing_the_video_states_is_no_difference():
    assert _rel("Space the seedlings thirty centimetres apart.",
                "Set seedlings 10 to 14 inches apart in rows 2 to 3 feet apart.") == "supports"
    assert _rel("Bake at 220 °C.", "Fan ovens run about 20 °C hotter.") is None  # an offset, not a setting


# an earlier model's or edition's figure alone revises; a bound on another quantity is no comparison


def test_an_earlier_models_figure_alone_is_a_revision():
    assert _rel("The pads last about 300 hours.", "Earlier pad designs were rated for 300 hours.") == "updates"


def test_a_bound_with_than_is_no_comparison():
    claim = "Keep it at about half charge."
    assert _rel(claim, "If you store it for longer than six months, charge it to 50% every six months.") == "supports"


def test_a_row_labelled_with_the_videos_own_item_on_a_comparison_page_is_for_or_against_it():
    head = "| Shoe type | Weight (oz) | Lifespan (mi) |"
    anchor = "Most daily trainers should be replaced every 300 to 500 miles."
    assert _rel(anchor, "| Daily trainer | 9.5 | 300–500 |", context=head, title="Shoe weights and lifespans compared") == "supports"
    assert _rel(anchor, "| Racing flat | 6.5 | 150–250 |", context=head, title="Shoe weights and lifespans compared") == "compares"
