;; Whole programs, written the way Clojure programmers write them (issue 22).
;;
;; Each top-level form is one program: its definitions, then a vector of results, each of
;; which counts as one assertion. tests/conformance/generate.py --corpus programs.clj
;; --out programs.json evaluates them with real Clojure 1.11, and tests/test_programs.py
;; runs them with ptc and reports the share of assertions that agree (same comment
;; conventions as corpus.clj: ;; == section ==, ;; deviation: <reason> => <ptc value>).

;; == puzzles ==
(do
  (defn fizzbuzz [n]
    (cond (zero? (mod n 15)) "FizzBuzz"
          (zero? (mod n 3)) "Fizz"
          (zero? (mod n 5)) "Buzz"
          :else (str n)))
  [(fizzbuzz 3) (fizzbuzz 5) (fizzbuzz 15) (fizzbuzz 7)
   (vec (map fizzbuzz (range 1 16)))
   (count (filter #{"Fizz"} (map fizzbuzz (range 1 101))))
   (frequencies (map fizzbuzz (range 1 31)))
   (str/join " " (map fizzbuzz (range 9 13)))])

(do
  (defn prime? [n]
    (and (> n 1)
         (not-any? #(zero? (rem n %)) (range 2 (inc (int (Math/sqrt n)))))))
  (defn primes [] (filter prime? (iterate inc 2)))
  (defn sieve [n]
    (loop [candidates (range 2 (inc n)) acc []]
      (if-let [p (first candidates)]
        (recur (remove #(zero? (mod % p)) candidates) (conj acc p))
        acc)))
  [(prime? 2) (prime? 15) (prime? 97)
   (take 10 (primes))
   (nth (primes) 99)
   (sieve 50)
   (= (sieve 200) (take-while #(<= % 200) (primes)))
   (reduce + (take-while #(< % 1000) (primes)))
   (count (sieve 1000))])

(do
  (def fib-seq (map first (iterate (fn [[a b]] [b (+' a b)]) [0 1])))
  (defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
  (def memo-fib
    (memoize (fn [n] (if (< n 2) n (+ (memo-fib (- n 1)) (memo-fib (- n 2)))))))
  (defn lazy-fib
    ([] (lazy-fib 0 1))
    ([a b] (lazy-seq (cons a (lazy-fib b (+' a b))))))
  [(take 12 fib-seq) (fib 15) (memo-fib 60) (nth fib-seq 90)
   (take 10 (lazy-fib))
   (= (take 30 fib-seq) (take 30 (lazy-fib)))
   (count (str (nth (lazy-fib) 200)))
   (->> fib-seq (filter even?) (take-while #(< % 4000000)) (reduce +))])

(do
  (defn collatz [n]
    (take-while #(not= % 1) (iterate #(if (even? %) (quot % 2) (inc (* 3 %))) n)))
  (defn collatz-length [n] (inc (count (collatz n))))
  [(collatz 6) (collatz-length 27)
   (apply max-key collatz-length (range 1 1000))
   (collatz-length 1)
   (vec (map collatz-length (range 1 11)))
   (reduce max (map collatz-length (range 1 100)))])

(do
  (defn palindrome? [s]
    (let [clean (str/lower-case (str/replace s #"[^A-Za-z0-9]" ""))]
      (= clean (str/reverse clean))))
  (defn largest-palindrome-product [lo hi]
    (apply max (for [a (range lo hi) b (range a hi)
                     :let [p (* a b)]
                     :when (= (str p) (str/reverse (str p)))]
                 p)))
  [(palindrome? "A man, a plan, a canal: Panama") (palindrome? "hello")
   (palindrome? "") (palindrome? "No 'x' in Nixon")
   (largest-palindrome-product 10 100)
   (filter palindrome? ["racecar" "level" "clojure" "noon"])
   (count (filter #(palindrome? (str %)) (range 100 1000)))])

(do
  (defn anagrams [words]
    (->> words
         (group-by (comp str/join sort str/lower-case))
         vals
         (filter #(> (count %) 1))
         (map sort)
         (sort-by first)))
  (defn anagram? [a b] (= (sort (str/lower-case a)) (sort (str/lower-case b))))
  [(anagrams ["listen" "silent" "enlist" "google" "elgoog" "cat" "act" "dog"])
   (anagram? "Listen" "Silent") (anagram? "abc" "abd")
   (count (anagrams ["a" "b" "c"]))
   (map count (anagrams ["stop" "pots" "tops" "opts" "post" "spot"]))])

(do
  (defn queens [n]
    (letfn [(safe? [qs col]
              (let [row (count qs)]
                (every? (fn [[r c]] (and (not= c col)
                                         (not= (Math/abs (- c col)) (- row r))))
                        (map-indexed vector qs))))
            (place [qs]
              (if (= (count qs) n)
                [qs]
                (mapcat #(place (conj qs %)) (filter #(safe? qs %) (range n)))))]
      (place [])))
  [(count (queens 4)) (first (queens 4)) (count (queens 5)) (count (queens 6))
   (first (queens 6)) (every? #(= 6 (count (set %))) (queens 6))])

(do
  (defn hanoi [n from to via]
    (if (zero? n)
      []
      (concat (hanoi (dec n) from via to)
              [[from to]]
              (hanoi (dec n) via to from))))
  [(hanoi 1 :a :c :b) (hanoi 2 :a :c :b) (count (hanoi 10 :a :c :b))
   (first (hanoi 5 :a :c :b)) (last (hanoi 5 :a :c :b))
   (frequencies (map first (hanoi 4 :a :c :b)))])

(do
  (defn digits [n] (map #(Character/digit % 10) (str n)))
  (defn armstrong? [n]
    (let [ds (digits n) k (count ds)]
      (= n (reduce + (map #(long (Math/pow % k)) ds)))))
  (defn digital-root [n] (if (< n 10) n (recur (reduce + (digits n)))))
  (defn happy? [n]
    (loop [n n seen #{}]
      (cond (= n 1) true
            (seen n) false
            :else (recur (reduce + (map #(* % %) (digits n))) (conj seen n)))))
  [(digits 9875) (armstrong? 153) (armstrong? 154)
   (filter armstrong? (range 1 1000))
   (digital-root 493193) (happy? 19) (happy? 4)
   (take 8 (filter happy? (iterate inc 1)))
   (reduce + (digits (reduce *' (range 1 30))))])

(do
  (defn gcd [a b] (if (zero? b) a (recur b (mod a b))))
  (defn lcm [a b] (quot (* a b) (gcd a b)))
  (defn factors [n]
    (loop [n n d 2 acc []]
      (cond (= n 1) acc
            (zero? (mod n d)) (recur (quot n d) d (conj acc d))
            :else (recur n (inc d) acc))))
  (defn perfect? [n] (= n (reduce + (filter #(zero? (mod n %)) (range 1 n)))))
  [(gcd 48 18) (lcm 4 6) (reduce lcm (range 1 21)) (factors 360) (factors 97)
   (frequencies (factors 360)) (filter perfect? (range 1 1000))
   (reduce gcd [84 126 210])])

(do
  (defn roman [n]
    (let [table [[1000 "M"] [900 "CM"] [500 "D"] [400 "CD"] [100 "C"] [90 "XC"]
                 [50 "L"] [40 "XL"] [10 "X"] [9 "IX"] [5 "V"] [4 "IV"] [1 "I"]]]
      (loop [n n [[v s] & more :as t] table out ""]
        (cond (zero? n) out
              (>= n v) (recur (- n v) t (str out s))
              :else (recur n more out)))))
  (defn parse-roman [s]
    (let [vals {\I 1 \V 5 \X 10 \L 50 \C 100 \D 500 \M 1000}
          nums (map vals s)]
      (reduce + (map (fn [[a b]] (if (and b (< a b)) (- a) a))
                     (partition-all 2 1 nums)))))
  [(roman 1994) (roman 2024) (roman 3999) (roman 4)
   (parse-roman "MCMXCIV") (parse-roman "XLII")
   (every? #(= % (parse-roman (roman %))) (range 1 500))
   (map roman [1 5 10 50 100])])

(do
  (defn balanced? [s]
    (let [pairs {\) \( \] \[ \} \{}]
      (loop [[c & cs] (seq s) stack []]
        (cond (nil? c) (empty? stack)
              (#{\( \[ \{} c) (recur cs (conj stack c))
              (pairs c) (if (= (peek stack) (pairs c)) (recur cs (pop stack)) false)
              :else (recur cs stack)))))
  [(balanced? "([]{})") (balanced? "([)]") (balanced? "((") (balanced? "")
   (balanced? "(defn f [x] {:a [1 2]})") (balanced? "}")
   (filter balanced? ["()" ")(" "[()]" "{[}]"])])

(do
  (defn rle [s]
    (->> (partition-by identity s)
         (map (fn [run] (str (count run) (first run))))
         (apply str)))
  (defn unrle [s]
    (->> (re-seq #"(\d+)(\D)" s)
         (map (fn [[_ n c]] (apply str (repeat (Long/parseLong n) c))))
         (apply str)))
  [(rle "aaabccddd") (rle "") (rle "abc") (unrle "3a1b2c3d")
   (= "wwwwaaadexxxxxx" (unrle (rle "wwwwaaadexxxxxx")))
   (rle "1111222")
   (map (comp count rle) ["aaaa" "abab"])])

(do
  (defn life-step [cells]
    (let [neighbors (fn [[x y]] (for [dx [-1 0 1] dy [-1 0 1] :when (not= 0 dx dy)] [(+ x dx) (+ y dy)]))
          counts (frequencies (mapcat neighbors cells))]
      (set (for [[cell n] counts
                 :when (or (= n 3) (and (= n 2) (cells cell)))]
             cell))))
  (def blinker #{[1 0] [1 1] [1 2]})
  (def glider #{[1 0] [2 1] [0 2] [1 2] [2 2]})
  [(sort (life-step blinker)) (= blinker (life-step (life-step blinker)))
   (count (nth (iterate life-step glider) 4))
   (sort (nth (iterate life-step glider) 4))
   (life-step #{[0 0]})
   (count (life-step #{[0 0] [0 1] [1 0] [1 1]}))])

(do
  (defn word-ladder-neighbors [word dict]
    (filter (fn [w] (= 1 (count (filter false? (map = word w))))) dict))
  (defn bfs [start goal dict]
    (loop [queue (conj clojure.lang.PersistentQueue/EMPTY [start]) seen #{start}]
      (when-let [path (peek queue)]
        (let [w (peek path)]
          (if (= w goal)
            path
            (let [nexts (remove seen (word-ladder-neighbors w dict))]
              (recur (into (pop queue) (map #(conj path %) nexts))
                     (into seen nexts))))))))
  (def dict ["hot" "dot" "dog" "lot" "log" "cog" "hit"])
  [(word-ladder-neighbors "hot" dict)
   (bfs "hit" "cog" dict)
   (count (bfs "hit" "cog" dict))
   (bfs "hit" "hit" dict)
   (bfs "hit" "xyz" dict)])

;; == recursion and loop ==
(do
  (defn flatten-deep [x]
    (if (sequential? x) (mapcat flatten-deep x) [x]))
  (defn depth [x] (if (sequential? x) (inc (reduce max 0 (map depth x))) 0))
  (defn tree-sum [t] (if (number? t) t (reduce + (map tree-sum t))))
  [(flatten-deep [1 [2 [3 [4]] 5] [[6]]]) (depth [1 [2 [3]]]) (depth 5)
   (tree-sum [1 [2 3] [[4] 5]]) (= (flatten-deep [[1 2] [3]]) (flatten [[1 2] [3]]))
   (flatten-deep []) (depth [])])

(do
  (defn power-set [s]
    (reduce (fn [acc x] (concat acc (map #(conj % x) acc))) [#{}] s))
  (defn permutations [s]
    (if (empty? s)
      [[]]
      (for [x s p (permutations (remove #{x} s))] (cons x p))))
  (defn combinations [k coll]
    (cond (zero? k) [[]]
          (empty? coll) []
          :else (concat (map #(cons (first coll) %) (combinations (dec k) (rest coll)))
                        (combinations k (rest coll)))))
  [(count (power-set #{1 2 3 4})) (sort (map count (power-set [1 2 3])))
   (permutations [1 2 3]) (count (permutations (range 5)))
   (combinations 2 [:a :b :c :d]) (count (combinations 3 (range 10)))
   (set (map set (power-set [1 2])))])

(do
  (defn ackermann [m n]
    (cond (zero? m) (inc n)
          (zero? n) (recur (dec m) 1)
          :else (recur (dec m) (ackermann m (dec n)))))
  (defn binary-search [v target]
    (loop [lo 0 hi (dec (count v))]
      (when (<= lo hi)
        (let [mid (quot (+ lo hi) 2) x (v mid)]
          (cond (= x target) mid
                (< x target) (recur (inc mid) hi)
                :else (recur lo (dec mid)))))))
  (def sorted-v (vec (range 0 1000 3)))
  [(ackermann 2 3) (ackermann 3 3) (binary-search sorted-v 300) (binary-search sorted-v 301)
   (binary-search [] 1) (map #(binary-search [1 3 5 7] %) [1 3 5 7 8])])

(do
  (defn merge-sort [xs]
    (if (<= (count xs) 1)
      xs
      (let [[l r] (split-at (quot (count xs) 2) xs)]
        (loop [a (merge-sort l) b (merge-sort r) out []]
          (cond (empty? a) (into out b)
                (empty? b) (into out a)
                (<= (first a) (first b)) (recur (rest a) b (conj out (first a)))
                :else (recur a (rest b) (conj out (first b))))))))
  (defn quick-sort [[pivot & more]]
    (when pivot
      (concat (quick-sort (filter #(< % pivot) more))
              [pivot]
              (quick-sort (remove #(< % pivot) more)))))
  (def data [38 27 43 3 9 82 10 3 55 -4])
  [(merge-sort data) (quick-sort data) (= (sort data) (merge-sort data) (quick-sort data))
   (merge-sort []) (quick-sort []) (merge-sort [1])
   (take 5 (merge-sort (map #(mod (* % 7919) 1000) (range 200))))])

(do
  (defn count-change [amount coins]
    (cond (zero? amount) 1
          (or (neg? amount) (empty? coins)) 0
          :else (+ (count-change amount (rest coins))
                   (count-change (- amount (first coins)) coins))))
  (defn knapsack [items cap]
    (let [table (reduce (fn [best [w v]]
                          (vec (for [c (range (inc cap))]
                                 (if (<= w c) (max (best c) (+ v (best (- c w)))) (best c)))))
                        (vec (repeat (inc cap) 0))
                        items)]
      (peek table)))
  (defn lcs [a b]
    (let [rows (reduce (fn [prev x]
                         (reduce (fn [row [j y]]
                                   (conj row (if (= x y) (inc (prev j)) (max (prev (inc j)) (peek row)))))
                                 [0] (map-indexed vector b)))
                       (vec (repeat (inc (count b)) 0)) a)]
      (peek rows)))
  [(count-change 100 [50 25 10 5 1]) (count-change 10 [5 2]) (count-change 3 [2])
   (knapsack [[12 4] [2 2] [1 1] [1 2] [4 10]] 15) (knapsack [] 10)
   (lcs "ABCBDAB" "BDCABA") (lcs "clojure" "closure") (lcs "" "abc")])

(do
  (defn tree-insert [tree x]
    (cond (nil? tree) {:value x}
          (< x (:value tree)) (update tree :left tree-insert x)
          :else (update tree :right tree-insert x)))
  (defn in-order [tree]
    (when tree (concat (in-order (:left tree)) [(:value tree)] (in-order (:right tree)))))
  (defn height [tree] (if tree (inc (max (height (:left tree)) (height (:right tree)))) 0))
  (def t (reduce tree-insert nil [50 30 70 20 40 60 80 35]))
  [(in-order t) (height t) (:value (:left t)) (get-in t [:left :right :left :value])
   (height nil) (in-order (reduce tree-insert nil (range 10)))
   (height (reduce tree-insert nil (range 10)))])

;; == lazy sequences ==
(do
  (defn my-map [f s] (lazy-seq (when-let [s (seq s)] (cons (f (first s)) (my-map f (rest s))))))
  (defn my-filter [p s]
    (lazy-seq (when-let [s (seq s)]
                (if (p (first s)) (cons (first s) (my-filter p (rest s))) (my-filter p (rest s))))))
  (defn my-take [n s] (lazy-seq (when (and (pos? n) (seq s)) (cons (first s) (my-take (dec n) (rest s))))))
  (defn naturals ([] (naturals 0)) ([n] (lazy-seq (cons n (naturals (inc n))))))
  [(my-take 5 (my-map inc (naturals))) (my-take 4 (my-filter even? (naturals)))
   (nth (my-map #(* % %) (naturals)) 100) (my-map inc []) (my-take 3 [1])
   (first (my-filter #(> % 1000) (my-map #(* % %) (naturals))))
   (reduce + (my-take 100 (my-map inc (naturals))))])

(do
  (def triangulars (reductions + (iterate inc 1)))
  (defn cycle-take [n xs] (take n (cycle xs)))
  (def powers-of-two (iterate #(* 2 %) 1))
  (defn interleave-all [& seqs] (apply mapcat vector seqs))
  [(take 8 triangulars) (cycle-take 7 [:r :g :b]) (nth powers-of-two 20)
   (take 6 (interleave (iterate inc 0) (repeat :x)))
   (interleave-all [1 2 3] [:a :b :c])
   (take 5 (map vector (range) "abcdefg"))
   (first (drop-while #(< % 100) triangulars))
   (take 3 (partition 2 (range)))
   (take 3 (distinct (map #(mod % 3) (range))))])

(do
  (defn pascal-row [row] (vec (map + (cons 0 row) (conj row 0))))
  (def pascal (iterate pascal-row [1]))
  (def lazy-fibs (lazy-cat [0 1] (map + lazy-fibs (rest lazy-fibs))))
  (defn hailstone-seq [n] (lazy-seq (cons n (when (> n 1) (hailstone-seq (if (even? n) (quot n 2) (inc (* 3 n))))))))
  [(take 6 pascal) (nth pascal 10) (reduce + (nth pascal 12))
   (hailstone-seq 7) (count (hailstone-seq 27))
   (take 5 (lazy-cat [1 2] [3 4] (range 5 100)))
   (take 10 lazy-fibs)])

(do
  (defn chunked-sum [xs] (map #(reduce + %) (partition-all 3 xs)))
  (defn sliding-avg [n xs] (map #(/ (reduce + %) (double n)) (partition n 1 xs)))
  (defn runs [xs] (partition-by identity xs))
  [(chunked-sum (range 10)) (sliding-avg 3 [1 2 3 4 5 6]) (runs [1 1 2 3 3 3 1])
   (map count (runs "aaabbbbcc")) (take 3 (map #(reduce + %) (partition 5 (range))))
   (split-with even? [2 4 5 6]) (take-last 2 (range 10))
   (take 3 (keep #(when (odd? %) (* % %)) (range)))])

;; == letfn ==
(do
  (defn classify [n]
    (letfn [(even-num? [n] (if (zero? n) true (odd-num? (dec n))))
            (odd-num? [n] (if (zero? n) false (even-num? (dec n))))]
      (if (even-num? n) :even :odd)))
  (defn tokenize [s]
    (letfn [(digit? [c] (Character/isDigit c))
            (read-num [cs] (let [[ds more] (split-with digit? cs)] [(Long/parseLong (apply str ds)) more]))
            (step [cs acc]
              (cond (empty? cs) acc
                    (digit? (first cs)) (let [[n more] (read-num cs)] (recur more (conj acc n)))
                    (= \space (first cs)) (recur (rest cs) acc)
                    :else (recur (rest cs) (conj acc (keyword (str (first cs)))))))]
      (step (seq s) [])))
  [(classify 10) (classify 7) (map classify (range 4))
   (tokenize "12 + 34 * 5") (tokenize "") (tokenize "7")
   (count (tokenize "1+2+3+4"))])

(do
  (defn eval-rpn [s]
    (letfn [(apply-op [stack op]
              (let [[b a & more] stack]
                (conj more ({"+" (+ a b) "-" (- a b) "*" (* a b) "/" (quot a b)} op))))]
      (first (reduce (fn [stack tok]
                       (if (#{"+" "-" "*" "/"} tok) (apply-op stack tok) (conj stack (Long/parseLong tok))))
                     '()
                     (str/split s #"\s+")))))
  [(eval-rpn "3 4 +") (eval-rpn "5 1 2 + 4 * + 3 -") (eval-rpn "2 3 4 * +")
   (eval-rpn "20 4 /") (eval-rpn "42") (map eval-rpn ["1 1 +" "9 3 -"])])

;; == destructuring ==
(do
  (defn describe-person [{:keys [name age] :or {age 0} :as person}]
    (str name " (" age ")" (when (:admin person) " [admin]")))
  (defn point-dist [[x1 y1] [x2 y2]] (Math/sqrt (+ (Math/pow (- x2 x1) 2) (Math/pow (- y2 y1) 2))))
  (defn head-tail [[h & t]] {:head h :tail t})
  (defn nested [{{:keys [city zip]} :address [first-tag] :tags}] [city zip first-tag])
  [(describe-person {:name "Ann" :age 31}) (describe-person {:name "Bob"})
   (describe-person {:name "Cy" :age 40 :admin true}) (point-dist [0 0] [3 4])
   (head-tail [1 2 3]) (head-tail []) (head-tail "xyz")
   (nested {:address {:city "Oslo" :zip "0150"} :tags ["a" "b"]})
   (let [{:strs [a b]} {"a" 1 "b" 2}] (+ a b))
   (let [[_ _ third :as all] (range 10)] [third (count all)])])

(do
  (defn swap-pairs [pairs] (map (fn [[a b]] [b a]) pairs))
  (defn invert [m] (into {} (map (fn [[k v]] [v k]) m)))
  (defn opts-fn [x & {:keys [scale offset] :or {scale 1 offset 0}}] (+ offset (* scale x)))
  (defn sum-firsts [& colls] (reduce + (map (fn [[x]] (or x 0)) colls)))
  [(swap-pairs [[1 :a] [2 :b]]) (invert {:a 1 :b 2})
   (opts-fn 5) (opts-fn 5 :scale 3) (opts-fn 5 :scale 2 :offset 1)
   (sum-firsts [1 2] [3] [] [10 20])
   (let [[[a b] [c d]] [[1 2] [3 4]]] (+ a b c d))
   (for [[k v] (sorted-map :b 2 :a 1)] (str (name k) v))
   (let [{[x y] :pos :keys [id]} {:id 7 :pos [3 4]}] [id x y])])

(do
  (defn parse-kv [s]
    (into {} (for [pair (str/split s #";")
                   :let [[k v] (str/split pair #"=" 2)]
                   :when (seq k)]
               [(keyword (str/trim k)) (str/trim (or v ""))])))
  (defn first-and-rest-of-set [s] (let [[x & more] (sort s)] [x (count more)]))
  [(parse-kv "a=1; b=2;c = three") (parse-kv "") (parse-kv "k=v=w")
   (first-and-rest-of-set #{3 1 2})
   (let [[x & more] #{42}] [x more])
   (let [[a b & more] (sorted-map :x 1 :y 2 :z 3)] [a b more])
   (let [[c & cs] "hey"] [c (apply str cs)])])

;; == string work ==
(do
  (defn word-freq [text]
    (->> (str/split (str/lower-case text) #"\W+")
         (remove str/blank?)
         frequencies
         (sort-by (juxt (comp - val) key))
         (take 3)))
  (defn capitalize-words [s] (str/join " " (map str/capitalize (str/split s #" "))))
  (defn camel->kebab [s] (str/lower-case (str/replace s #"([a-z])([A-Z])" "$1-$2")))
  (defn kebab->camel [s] (let [[w & ws] (str/split s #"-")] (apply str w (map str/capitalize ws))))
  (def text "The quick brown fox. The lazy dog! The end, the fox.")
  [(word-freq text) (capitalize-words "hello big world") (camel->kebab "parseHttpRequest")
   (kebab->camel "parse-http-request") (str/upper-case "abc") (count (str/split-lines "a\nb\nc"))
   (str/join "," (map str/trim [" a " "b  " "  c"]))
   (str/replace "2024-01-31" #"(\d+)-(\d+)-(\d+)" "$3/$2/$1")])

(do
  (defn caesar [shift s]
    (apply str (map (fn [c]
                      (cond (Character/isUpperCase c) (char (+ 65 (mod (+ (- (int c) 65) shift) 26)))
                            (Character/isLowerCase c) (char (+ 97 (mod (+ (- (int c) 97) shift) 26)))
                            :else c))
                    s)))
  (defn vowel-count [s] (count (filter #{\a \e \i \o \u} (str/lower-case s))))
  (defn acronym [s] (apply str (map (comp str/upper-case first) (re-seq #"[A-Za-z]+" s))))
  [(caesar 3 "Hello, World!") (caesar -3 (caesar 3 "Round Trip")) (caesar 13 "abcxyz")
   (vowel-count "Programming in Clojure") (acronym "portable network graphics")
   (acronym "as soon as possible") (apply str (reverse "stressed"))
   (str/join (interpose "-" ["a" "b" "c"]))])

(do
  (defn pad-left [s n c] (str (apply str (repeat (- n (count s)) c)) s))
  (defn format-row [cols widths] (str/join " | " (map #(pad-left (str %1) %2 " ") cols widths)))
  (defn table [rows]
    (let [widths (apply map max (map #(map (comp count str) %) rows))]
      (map #(format-row % widths) rows)))
  [(pad-left "42" 5 "0") (pad-left "abc" 2 " ")
   (table [["id" "name"] [1 "Ann"] [22 "Bo"]])
   (format "%-5s|%5d|%.2f" "ab" 42 3.14159) (format "%03d" 7) (format "%s and %s" :a nil)
   (str/escape "a<b>c" {\< "&lt;" \> "&gt;"})])

(do
  (defn parse-csv-line [line] (str/split line #","))
  (defn parse-csv [text]
    (let [[header & rows] (str/split-lines text)
          ks (map keyword (parse-csv-line header))]
      (map #(zipmap ks (parse-csv-line %)) rows)))
  (def csv "name,dept,salary\nAnn,eng,120\nBob,ops,90\nCy,eng,100\nDee,ops,95")
  (def rows (parse-csv csv))
  (defn salary [r] (Long/parseLong (:salary r)))
  [(count rows) (first rows) (map :name rows)
   (into (sorted-map) (map (fn [[d rs]] [d (reduce + (map salary rs))]) (group-by :dept rows)))
   (:name (apply max-key salary rows))
   (->> rows (filter #(= "eng" (:dept %))) (map salary) (reduce +))
   (sort (keys (first rows)))])

(do
  (defn valid-email? [s] (boolean (re-matches #"[\w.+-]+@[\w-]+\.[\w.]+" s)))
  (defn extract-numbers [s] (map #(Long/parseLong %) (re-seq #"-?\d+" s)))
  (defn slugify [s] (-> s str/lower-case str/trim (str/replace #"[^a-z0-9]+" "-") (str/replace #"^-|-$" "")))
  [(valid-email? "a.b@example.com") (valid-email? "not-an-email") (extract-numbers "x=10, y=-3, z=42")
   (slugify "  Hello, World! 2024 ") (re-find #"\d+" "abc123def456") (re-find #"(\w+)@(\w+)" "me@host")
   (str/includes? "clojure" "jure") (str/index-of "banana" "n") (str/last-index-of "banana" "n")])

;; == data transformations ==
(do
  (def orders
    [{:id 1 :customer "ann" :items [{:sku "a" :qty 2 :price 10.0} {:sku "b" :qty 1 :price 5.5}]}
     {:id 2 :customer "bob" :items [{:sku "a" :qty 1 :price 10.0}]}
     {:id 3 :customer "ann" :items [{:sku "c" :qty 4 :price 2.25}]}])
  (defn order-total [o] (reduce + (map #(* (:qty %) (:price %)) (:items o))))
  [(map order-total orders)
   (update-vals (group-by :customer orders) #(reduce + (map order-total %)))
   (->> orders (mapcat :items) (map :sku) frequencies)
   (->> orders (mapcat :items) (group-by :sku) (map (fn [[k v]] [k (reduce + (map :qty v))])) (into (sorted-map)))
   (:id (apply max-key order-total orders))
   (reduce + (map order-total orders))
   (set (map :customer orders))
   (map :id (sort-by order-total > orders))])

(do
  (def people [{:name "Ann" :age 31 :city "Oslo"} {:name "Bob" :age 25 :city "Rome"}
               {:name "Cy" :age 42 :city "Oslo"} {:name "Dee" :age 25 :city "Lima"}])
  [(map :name (sort-by :age people)) (map :name (sort-by (juxt :age :name) people))
   (into (sorted-map) (frequencies (map :city people)))
   (->> people (group-by :age) (into (sorted-map)) (map (fn [[a ps]] [a (map :name ps)])))
   (double (/ (reduce + (map :age people)) (count people)))
   (map #(select-keys % [:name]) (filter #(> (:age %) 30) people))
   (reduce (fn [acc {:keys [city]}] (update acc city (fnil inc 0))) (sorted-map) people)
   (map #(update % :age inc) (take 1 people))
   (some #(when (= "Rome" (:city %)) (:name %)) people)])

(do
  (defn index-by [f coll] (into {} (map (juxt f identity) coll)))
  (defn deep-merge [& maps] (apply merge-with (fn [a b] (if (and (map? a) (map? b)) (deep-merge a b) b)) maps))
  (defn map-keys [f m] (into {} (map (fn [[k v]] [(f k) v]) m)))
  (defn remove-nils [m] (into {} (remove (comp nil? val) m)))
  [(index-by :id [{:id 1 :v :a} {:id 2 :v :b}])
   (deep-merge {:a {:b 1 :c 2}} {:a {:c 3 :d 4}} {:e 5})
   (map-keys name {:a 1 :b 2}) (remove-nils {:a 1 :b nil :c false})
   (merge-with + {:a 1 :b 2} {:a 10 :c 3}) (assoc-in {} [:x :y :z] 1)
   (update-in {:a {:b [1 2 3]}} [:a :b] conj 4) (get-in {:a [{:b 7}]} [:a 0 :b])
   (reduce-kv (fn [acc k v] (assoc acc v k)) {} {:a 1 :b 2})])

(do
  (defn transpose [m] (apply mapv vector m))
  (defn mat-mul [a b] (let [bt (transpose b)] (mapv (fn [row] (mapv #(reduce + (map * row %)) bt)) a)))
  (defn identity-matrix [n] (vec (for [i (range n)] (vec (for [j (range n)] (if (= i j) 1 0))))))
  (def m [[1 2 3] [4 5 6]])
  [(transpose m) (mat-mul m (transpose m)) (identity-matrix 3)
   (= m (mat-mul m (identity-matrix 3))) (mapv #(reduce + %) m) (apply + (flatten m))
   (map-indexed (fn [i row] (get row i)) [[1 2] [3 4]])
   (reduce (fn [acc row] (mapv + acc row)) m)])

(do
  (def events [{:t 1 :type :click :user "a"} {:t 2 :type :view :user "b"} {:t 3 :type :click :user "a"}
               {:t 5 :type :click :user "b"} {:t 8 :type :view :user "a"}])
  (defn sessionize [gap evs]
    (reduce (fn [sessions e]
              (let [last-s (peek sessions)]
                (if (and last-s (<= (- (:t e) (:t (peek last-s))) gap))
                  (conj (pop sessions) (conj last-s e))
                  (conj sessions [e]))))
            [] evs))
  [(count (sessionize 2 events)) (map count (sessionize 2 events))
   (->> events (filter #(= :click (:type %))) (map :user) frequencies)
   (into {} (for [[u es] (group-by :user events)] [u (mapv :t es)]))
   (->> events (map :t) (partition 2 1) (map (fn [[a b]] (- b a))))
   (reduce max (map :t events))
   (->> events (group-by :type) (map (fn [[k v]] [k (count v)])) (into (sorted-map)))])

(do
  (def inventory {"apple" {:qty 5 :price 0.5} "pear" {:qty 0 :price 0.75} "kiwi" {:qty 12 :price 0.25}})
  (defn in-stock [inv] (into (sorted-map) (filter (fn [[_ v]] (pos? (:qty v))) inv)))
  (defn restock [inv item n] (update-in inv [item :qty] + n))
  (defn value [inv] (reduce + (map (fn [{:keys [qty price]}] (* qty price)) (vals inv))))
  [(keys (in-stock inventory)) (get-in (restock inventory "pear" 3) ["pear" :qty])
   (value inventory) (value (restock inventory "kiwi" 4))
   (sort (map first (filter #(< (:price (val %)) 0.6) inventory)))
   (count (dissoc inventory "apple")) (contains? inventory "kiwi")
   (find inventory "apple")])

;; == utilities ==
(do
  (defn frequencies-by [f coll] (frequencies (map f coll)))
  (defn distinct-by [f coll]
    (let [step (fn step [xs seen]
                 (lazy-seq
                   (when-let [[x & more] (seq xs)]
                     (let [k (f x)]
                       (if (contains? seen k) (step more seen) (cons x (step more (conj seen k))))))))]
      (step coll #{})))
  (defn chunk-by-size [n coll] (map vec (partition-all n coll)))
  (defn safe-div [a b] (try (quot a b) (catch ArithmeticException _ :div-by-zero)))
  [(frequencies-by count ["a" "bb" "cc" "d"]) (distinct-by count ["a" "bb" "cc" "d" "eee"])
   (chunk-by-size 2 (range 5)) (safe-div 7 2) (safe-div 1 0)
   (take 3 (distinct-by #(mod % 5) (range)))
   (mapv (partial * 2) [1 2 3]) ((comp inc #(* 2 %)) 5) ((juxt min max) 3 1 2)])

(do
  (defn retry [n f]
    (loop [i 1]
      (let [r (try {:ok (f i)} (catch Exception e {:err (ex-message e)}))]
        (if (or (:ok r) (>= i n)) (assoc r :attempts i) (recur (inc i))))))
  (defn validate [m]
    (cond-> []
      (not (string? (:name m))) (conj :name)
      (not (pos-int? (:age m))) (conj :age)
      (not (re-matches #".+@.+" (str (:email m)))) (conj :email)))
  [(retry 5 (fn [i] (if (< i 3) (throw (ex-info "flaky" {:i i})) :done)))
   (retry 2 (fn [_] (throw (ex-info "always" {}))))
   (validate {:name "A" :age 3 :email "a@b"}) (validate {}) (validate {:name 1 :age -1 :email "x@y"})
   (try (throw (ex-info "boom" {:code 42})) (catch clojure.lang.ExceptionInfo e [(ex-message e) (ex-data e)]))
   (some-> {:a {:b 5}} :a :b inc) (some-> {:a nil} :a :b inc)])

(do
  (defn histogram [xs width]
    (->> xs (group-by #(* width (quot % width))) (map (fn [[k v]] [k (count v)])) (into (sorted-map))))
  (defn mean [xs] (/ (reduce + xs) (double (count xs))))
  (defn median [xs] (let [s (vec (sort xs)) n (count s)]
                      (if (odd? n) (s (quot n 2)) (/ (+ (s (dec (quot n 2))) (s (quot n 2))) 2.0))))
  (defn variance [xs] (let [m (mean xs)] (mean (map #(Math/pow (- % m) 2) xs))))
  (def sample [2 4 4 4 5 5 7 9])
  [(histogram [1 3 7 12 15 18 22] 10) (mean sample) (median sample) (median [3 1 2])
   (variance sample) (Math/sqrt (variance sample)) (apply max sample) (apply min-key #(Math/abs (- % 6)) sample)])

(do
  (defn make-counter [] (let [counts (frequencies [])] (fn [coll] (merge-with + counts (frequencies coll)))))
  (defn compose-all [& fs] (reduce comp identity fs))
  (defn pipeline [x & steps] (reduce (fn [acc f] (f acc)) x steps))
  (def inc-then-double (comp #(* 2 %) inc))
  [((make-counter) [:a :b :a]) ((compose-all str inc inc) 1) (pipeline 3 inc #(* % 10) str)
   (inc-then-double 4) (map (fnil inc 0) [1 nil 3]) ((every-pred pos? even?) 4) ((some-fn neg? zero?) 3)
   (->> (range 10) (filter odd?) (map #(* % %)) (reduce +))
   (as-> 5 x (* x 2) (+ x 1) (str "v" x))])

;; == dates and interop ==
(do
  (defn parse-date [s] (java.time.LocalDate/parse s))
  (defn days-between [a b] (.between java.time.temporal.ChronoUnit/DAYS (parse-date a) (parse-date b)))
  (defn add-days [s n] (str (.plusDays (parse-date s) n)))
  (defn weekend? [s] (contains? #{"SATURDAY" "SUNDAY"} (str (.getDayOfWeek (parse-date s)))))
  (def invoices [{:id 1 :due "2026-03-01" :paid "2026-03-05"} {:id 2 :due "2026-03-10" :paid "2026-03-09"}
                 {:id 3 :due "2026-02-27" :paid "2026-03-14"}])
  [(days-between "2026-01-01" "2026-03-14") (add-days "2026-03-14" 30) (add-days "2024-02-28" 1)
   (weekend? "2026-03-14") (weekend? "2026-03-16")
   (map #(days-between (:due %) (:paid %)) invoices)
   (map :id (filter #(.isAfter (parse-date (:paid %)) (parse-date (:due %))) invoices))
   (map :id (sort-by #(parse-date (:due %)) invoices))
   (str (reduce #(if (.isAfter %1 %2) %1 %2) (map (comp parse-date :paid) invoices)))])

(do
  (defn month-key [s] (let [d (java.time.LocalDate/parse s)] (format "%d-%02d" (.getYear d) (.getMonthValue d))))
  (def sales [{:date "2026-01-15" :amount 100} {:date "2026-01-20" :amount 50} {:date "2026-02-03" :amount 75}
              {:date "2026-03-30" :amount 20} {:date "2026-03-01" :amount 5}])
  (defn monthly [rows] (into (sorted-map) (map (fn [[k v]] [k (reduce + (map :amount v))]) (group-by (comp month-key :date) rows))))
  (defn quarter [s] (inc (quot (dec (.getMonthValue (java.time.LocalDate/parse s))) 3)))
  [(monthly sales) (map (comp quarter :date) sales) (month-key "2026-12-31")
   (str (.withDayOfMonth (java.time.LocalDate/parse "2026-03-14") 1))
   (.lengthOfMonth (java.time.LocalDate/parse "2026-02-01"))
   (str (.minusMonths (java.time.LocalDate/parse "2026-03-31") 1))
   (map str (take 3 (iterate #(.plusWeeks % 1) (java.time.LocalDate/parse "2026-03-14"))))])

(do
  (defn ->instant [s] (java.time.Instant/parse s))
  (defn minutes-between [a b] (.toMinutes (java.time.Duration/between (->instant a) (->instant b))))
  (def log [{:at "2026-03-14T10:00:00Z" :ev "start"} {:at "2026-03-14T10:45:30Z" :ev "ping"}
            {:at "2026-03-14T12:15:00Z" :ev "stop"}])
  [(minutes-between "2026-03-14T10:00:00Z" "2026-03-14T12:15:00Z")
   (map (fn [[a b]] (minutes-between (:at a) (:at b))) (partition 2 1 log))
   (str (.plusSeconds (->instant "2026-03-14T23:59:30Z") 60))
   (.toEpochMilli (->instant "1970-01-01T00:00:10Z"))
   (str (java.time.Duration/ofMinutes 135))
   (.isBefore (->instant (:at (first log))) (->instant (:at (last log))))
   (str (java.time.LocalDateTime/parse "2026-03-14T10:15"))])

(do
  (defn normalize [s] (-> s .trim .toLowerCase))
  (defn word-lengths [s] (map #(.length %) (.split (.trim s) "\\s+")))
  (defn digits-only [s] (apply str (filter #(Character/isDigit %) s)))
  (defn parse-int-safe [s] (try (Integer/parseInt s) (catch NumberFormatException _ nil)))
  [(normalize "  HeLLo ") (word-lengths " the quick  brown fox ") (digits-only "a1b2c3")
   (parse-int-safe "42") (parse-int-safe "4x2") (.startsWith "clojure" "clo") (.indexOf "clojure" "j")
   (.substring "clojure" 3) (.replace "a-b-c" "-" "+") (.contains "haystack" "st")
   (Math/abs -7) (Math/max 3 9) (Math/floor 2.7) (Math/round 2.5) (Math/pow 2 10)
   (Long/parseLong "9000000000") (Integer/MAX_VALUE) (.toUpperCase (str :kw))])

(do
  (defn sum-squares ^long [^long n] (reduce + (map #(* % %) (range 1 (inc n)))))
  (defn- ^String greet [^String who] (str "hi " who))
  (def ^:private ^:const limit 10)
  (defn ^{:doc "clamps"} clamp [lo hi ^double x] (max lo (min hi x)))
  [(sum-squares 10) (greet "ann") limit (clamp 0 10 12.5) (clamp 0 10 -1)
   (let [^String s "typed" n 3] (subs s 0 n))
   ((fn [^long a ^long b] (* a b)) 6 7)])

;; == namespaces ==
(do
  (require '[clojure.string :as string] '[clojure.set :refer [union intersection]] 'clojure.walk)
  (defn tags [s] (set (map string/lower-case (string/split s #",\s*"))))
  [(tags "Clojure, LISP, jvm") (union (tags "a, b") (tags "B, c")) (intersection (tags "x, y") (tags "Y, z"))
   (clojure.walk/keywordize-keys {"k" {"n" 1}}) (string/join "-" (sort (tags "b, a")))])
