"""Stated quantities as intervals: the low floor that reads values and units for the report relater
(and any judge that compares values). Imports nothing of vidsleuth above ``errors``.

A value is what a sentence states about one quantity — a point ("180 °C"), an interval ("between
350 and 375 °F", "4–5 coats", "from 100 to 120 cm"), a bound ("at least 10 minutes", "up to
260 °C", "不超过6克") or an approximation ("about half an hour": ±``APPROX`` of the stated number)
— held as ``[lo, hi]`` in one comparison unit per dimension, so a relation is a point-in-interval
test. The parts are maintained libraries:

- **pint** holds the units: conversion, compound units (W·h, mm/s, km/h, N·m, kcal), offset
  temperatures (°F→°C converts each end, never a difference) and currencies, each its own
  dimension (no exchange rate is assumed). Only the *spellings* are a table here (``UNITS``):
  pint parses unit expressions, not prose ("degrees" is an angle to it, "in" an inch).
- number words become digits first (``vidsleuth.numwords``: text2num for English, cn2an for
  Chinese); Chinese units (克, 毫升, 千卡, 分钟, 步, 公里…) and bound words (不超过, 至少, 以上…)
  are spellings here.
- bounds are also written as symbols ("< 40 ppm", "≥ 4") and as negated comparatives ("never go
  above 92 °C" is at most 92), hedged ("under about 10 percent") or after the value ("four weeks is
  the minimum"); ppm (in water, 1 mg/L), bpm and pH (its own dimension, written before its number)
  are units; a count names a plural noun or a measure ending its clause ("3 coats", "180 grit."),
  not a name's number ("Vault 13 home battery") or a participle; Chinese measure words (次, 遍,
  杯…) count, and an ordinal (第3步, 第5天) counts nothing; a range runs upwards ("6 to 5 %" without
  "from" is a misheard number, not a range).
- a bare "°"/"degrees" is an angle (its own dimension) where its clause speaks of one ("hold the blade
  at 20 degrees on each side") and a temperature otherwise; SPF is a rating written before its number,
  like pH, and so is a camera's ISO when its number is one of the standard's speeds ("ISO 3200", not "ISO
  9001"); an f-number ("f/2.8", "F2.8") and a colour temperature ("3900 K": four or five digits before K) are
  scales of their own; pence before a rate are pounds ("9p per kWh"); a rate over an amount of its denominator
  is one rate ("1 lb of nitrogen per 1,000 sq ft": pint's registry gains a unit of 1,000 ft²); a label naming a minimum ("Min. night temp 10 °C", "最低夜温10℃") is a lower bound; a
  bracketed rounded conversion keeps the bound it restates ("at least 1 m (about 3 ft)").
- frequencies ("twice a year", "3 times per week", "每周3次") are their own kind (``frequency``) and
  meet a period ("every 6 months") as the period they imply; an ounce beside a volume is a fluid
  ounce (``aligned``); a Chinese rate with a number before its denominator is per one of it
  (每500克肉用盐15克: 30 g/kg).
- ratios ("1:1.25 rice to water", "one part vinegar to three parts water", "1.5 cups of water per cup
  of rice", "1比1.2") are one dimensionless quotient (``ratios``), turned to one orientation by the two
  things they name; a clock time ("2:15") is no ratio.
"""

from __future__ import annotations

from .quantity import (
    APPROX,
    CURRENCIES,
    MATCH,
    PREFIX_UNITS,
    SCALE,
    UNITS,
    WRITTEN_BEFORE,
    Value,
    aligned,
    as_angle,
    as_rounded,
    commensurate,
    convert,
    has_cjk,
    kinds_in,
    kinds_of,
    normalise,
    registry,
    same_value,
    show_unit,
)
from .reading import read_money, read_values, rescaled, speaks_of_angle, states

__all__ = ["APPROX", "CURRENCIES", "MATCH", "PREFIX_UNITS", "SCALE", "UNITS", "WRITTEN_BEFORE", "Value", "aligned", "as_angle", "as_rounded", "commensurate", "convert", "has_cjk", "kinds_in", "kinds_of",
           "normalise", "read_money", "read_values", "rescaled", "registry", "same_value", "show_unit", "speaks_of_angle", "states"]
