"""Special forms, macros, destructuring, closures and recursion, through ptc.run."""

import pytest

import ptc


def ev(source: str, **kw):  # type: ignore[no-untyped-def]
    return ptc.pr_str(ptc.run(source, **kw).value)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("(+ 1 2)", "3"),
        ("(do 1 2 3)", "3"),
        ("(let [x 1 y (+ x 1)] (* x y))", "2"),
        ("(loop [i 0 s 0] (if (< i 10) (recur (inc i) (+ s i)) s))", "45"),
        ("(if nil 1 2)", "2"),
        ("(if 0 1 2)", "1"),
        ("(if-not false :a :b)", ":a"),
        ("(when true 1 2)", "2"),
        ("(when-not true 1)", "nil"),
        ("(cond (> 1 2) :a (> 2 1) :b :else :c)", ":b"),
        ("(cond (> 1 2) :a)", "nil"),
        ("(condp = 3 1 :a 2 :b :c)", ":c"),
        ("(case :b :a 1 (:b :c) 2 3)", "2"),
        ("(case 5 1 :one :other)", ":other"),
        ('(case "x" "x" 1 2)', "1"),
        ("(case 1 1.0 :float 1 :int)", ":int"),
        ("(if-let [x (first [])] x :none)", ":none"),
        ("(when-let [[a b] [1 2]] (+ a b))", "3"),
        ("(if-some [x false] [x] :none)", "[false]"),
        ("(when-some [x nil] 1)", "nil"),
        ("(and)", "true"),
        ("(and 1 2)", "2"),
        ("(and 1 nil 2)", "nil"),
        ("(or)", "nil"),
        ("(or nil false)", "false"),
        ("(or nil 0)", "0"),
        ("(-> 5 (- 2) (* 3))", "9"),
        ("(->> [1 2 3] (map inc) (reduce +))", "9"),
        ("(-> {:a {:b 2}} :a :b)", "2"),
        ("(some-> {:a 1} :b inc)", "nil"),
        ("(some->> [1 2] (map inc) first)", "2"),
        ("(cond-> 1 true inc false (* 10))", "2"),
        ("(cond->> [1 2] true (map inc))", "(2 3)"),
        ("(as-> 2 x (+ x 1) (* x x))", "9"),
        ("(for [x [1 2 3] :when (odd? x)] (* x 10))", "(10 30)"),
        ("(for [x [1 2] y [:a :b]] [x y])", "([1 :a] [1 :b] [2 :a] [2 :b])"),
        ("(for [x (range 10) :let [y (* x x)] :while (< y 20)] y)", "(0 1 4 9 16)"),
        ("(for [[k v] {:a 1}] [v k])", "([1 :a])"),
        ("(doseq [x [1 2]] x)", "nil"),
        ("(dotimes [i 3] i)", "nil"),
        ("((fn [x & more] [x more]) 1)", "[1 nil]"),
        ("((fn [x & more] [x more]) 1 2 3)", "[1 (2 3)]"),
        ("((fn f [n] (if (zero? n) :done (f (dec n)))) 3)", ":done"),
        ("(do (defn f ([x] (f x 1)) ([x y] (+ x y)) ([x y & m] (apply + x y m))) [(f 1) (f 1 2) (f 1 2 3 4)])",
         "[2 3 10]"),
        ("(do (defn fact [n] (if (zero? n) 1 (* n (fact (dec n))))) (fact 20))", "2432902008176640000"),
        ("(do (defn f [n acc] (if (zero? n) acc (recur (dec n) (+ acc n)))) (f 100000 0))", "5000050000"),
        ("(letfn [(ev? [n] (if (zero? n) true (od? (dec n)))) (od? [n] (if (zero? n) false (ev? (dec n))))] "
         "(ev? 10))", "true"),
        ("(let [[a b & r :as all] [1 2 3 4]] [a b r all])", "[1 2 (3 4) [1 2 3 4]]"),
        ("(let [[a [b c]] [1 [2 3]]] (+ a b c))", "6"),
        ("(let [{:keys [x y] :or {y 9} :as m} {:x 1}] [x y m])", "[1 9 {:x 1}]"),
        ('(let [{:strs [a]} {"a" 1}] a)', "1"),
        ("(let [{a :a [b] :b} {:a 1 :b [2]}] [a b])", "[1 2]"),
        ("(let [[a b] nil] [a b])", "[nil nil]"),
        ("((fn [{:keys [n]}] n) {:n 5})", "5"),
        ("(map (fn [[k v]] [v k]) {:a 1})", "([1 :a])"),
        ("(#(+ % %2) 1 2)", "3"),
        ("(#(apply + %&) 1 2 3)", "6"),
        ("'(a b)", "(a b)"),
        ("(quote x)", "x"),
        ("(let [fs (for [i [1 2 3]] (fn [] i))] (map (fn [f] (f)) fs))", "(1 2 3)"),
        ("(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (fn [] i))) (map (fn [f] (f)) acc)))",
         "(0 1 2)"),
        ("(do (def x 10) (defn g [] x) (def x 20) (g))", "20"),
        ("(def x 1)", "#'user/x"),
        ("(try (nth [] 1) (catch Exception e :caught))", ":caught"),
        ("(try (throw (ex-info \"bad\" {:a 1})) (catch Exception e [(ex-message e) (ex-data e)]))",
         '["bad" {:a 1}]'),
        ("(try 1 (finally 2))", "1"),
        ("(:a {:a 5})", "5"),
        ("(:a {:b 5} :default)", ":default"),
        ('(:name {"name" "Bob"})', 'nil'),
        ('(get {"name" "Bob"} "name")', '"Bob"'),
        ("({:a 1} :a)", "1"),
        ("(#{1 2} 2)", "2"),
        ("(= [1 2] '(1 2))", "true"),
        ("(= 1 1.0)", "false"),
        ("(= {:a 1} {:a 1})", "true"),
        ("(/ 10 4)", "2.5"),
        ("(comment (boom))", "nil"),
        ("1 2 3", "3"),
        ("", "nil"),
    ],
)
def test_programs(source: str, expected: str) -> None:
    assert ev(source) == expected


def test_return_and_fail_stop_immediately() -> None:
    r = ptc.run('(println "a") (return 5) (println "b")')
    assert r.value == 5 and r.returned and r.prints == ("a",)
    f = ptc.run('(fail "no data")')
    assert f.failed and f.value == "no data"


def test_return_inside_nested_function() -> None:
    r = ptc.run("(do (defn f [x] (when (> x 2) (return x))) (doseq [i (range 10)] (f i)) :never)")
    assert r.value == 3 and r.returned


def test_prints_one_entry_per_call() -> None:
    r = ptc.run('(println "a" 1 [2 "b"]) (println) (print "x")')
    assert r.prints == ("a 1 [2 b]", "", "x")


def test_memory_round_trip_and_all_or_nothing() -> None:
    r1 = ptc.run("(def total 10) (defn double [x] (* 2 x))")
    assert set(r1.memory) == {"total", "double"}
    r2 = ptc.run("(double total)", memory=r1.memory)
    assert r2.value == 20
    memory = dict(r1.memory)
    with pytest.raises(ptc.PTCError):
        ptc.run("(def total 99) (nth [] 5)", memory=memory)
    assert memory["total"] == 10
    assert ptc.run("total", memory=memory).value == 10


def test_functions_from_memory_see_later_redefinitions() -> None:
    r1 = ptc.run("(def rate 2) (defn price [x] (* x rate))")
    r2 = ptc.run("(def rate 3) (price 10)", memory=r1.memory)
    assert r2.value == 30


def test_history() -> None:
    assert ptc.run("(+ *1 *2)", history=[10, 5]).value == 15
    with pytest.raises(ptc.PTCError) as info:
        ptc.run("*3", history=[1])
    assert info.value.kind == "analysis"


def test_data_and_tools_namespaces() -> None:
    calls = []

    def lookup(id: int) -> dict:  # noqa: A002
        calls.append(id)
        return {"id": id, "name": f"item{id}"}

    r = ptc.run("(:name (tool/lookup {:id (first data/ids)}))", data={"ids": [7, 8]}, tools={"lookup": lookup})
    assert r.value == "item7" and calls == [7]
    assert r.tool_calls[0].name == "lookup" and r.tool_calls[0].error is None
    # bare names fall back to tools and data
    assert ptc.run("(count ids)", data={"ids": [1, 2]}).value == 2
    assert ptc.run("(:id (lookup 3))", tools={"lookup": lookup}).value == 3


def test_tool_argument_conventions() -> None:
    seen = []

    def tool(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((args, kwargs))
        return None

    ptc.run("(tool/t) (tool/t {:max-results 5}) (tool/t 1 2)", tools={"t": tool})
    assert seen == [((), {}), ((), {"max_results": 5}), ((1, 2), {})]


def test_ambiguous_bare_name() -> None:
    with pytest.raises(ptc.PTCError) as info:
        ptc.run("(x)", data={"x": 1}, tools={"x": lambda: 1})
    assert info.value.kind == "analysis" and "ambiguous" in info.value.message


# -- issue 15: forms and functions Clojure has (positive cases: the conformance corpus) ----------


def test_condp_result_fn_and_its_errors():
    assert ev("(condp some [1 2] #{3} :>> inc #{2} :>> dec)") == "1"
    with pytest.raises(ptc.PTCError, match="condp :>> needs a function after it") as e:
        ev("(condp = 1\n  2 :>>)")
    assert (e.value.line, e.value.column) == (2, 3)


def test_recur_in_the_last_step_of_cond_threading_only():
    assert ev("(loop [x 1] (cond-> x (< x 10) (-> (* 2) recur)))") == "16"
    with pytest.raises(ptc.PTCError, match="recur"):
        ev("(loop [x 1] (cond-> x (< x 10) (recur) true inc))")  # not in tail position, as in Clojure


def test_tree_seq_walks_deep_trees_without_python_recursion():
    src = "(count (tree-seq vector? seq (reduce (fn [t _] [t]) [] (range 5000))))"
    assert ev(src) == "5001"  # 5,000 wrappers around []


def test_run_bang_stops_at_reduced_and_iteration_checks_its_options():
    assert ev("(run! (fn [x] (println x) (when (= x 2) (reduced :stop))) [1 2 3])") == "nil"
    assert ptc.run("(run! println [1 2 3])").prints == ("1", "2", "3")
    with pytest.raises(ptc.PTCError, match="iteration: unknown option :page"):
        ev("(iteration inc :page 1)")
    with pytest.raises(ptc.PTCError, match="options come in pairs"):
        ev("(iteration inc :initk)")


def test_transients_are_the_persistent_values():
    assert ev("(let [t (transient [1])] (conj! t 2) (persistent! t))") == "[1]"  # no mutation
    with pytest.raises(ptc.PTCError, match="transient: expected a vector, map or set"):
        ev("(transient '(1))")
