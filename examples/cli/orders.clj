;; Revenue report over the sample orders.
;; Run: ptc run examples/cli/orders.clj --data examples/cli/orders.json
;; The JSON's top-level keys are read as data/<key>: here data/orders.

(defn revenue [order]
  (* (:quantity order) (:unit_price order)))

(def delivered
  (filter #(= "delivered" (:status %)) data/orders))

(println "orders:" (count data/orders) "delivered:" (count delivered))

(def by-region
  (->> delivered
       (group-by :region)
       (map (fn [[region orders]]
              {:region region
               :orders (count orders)
               :revenue (reduce + (map revenue orders))}))
       (sort-by :revenue >)))

(doseq [{:keys [region orders revenue]} by-region]
  (println region orders "orders," revenue "revenue"))

{:total-revenue (reduce + (map revenue delivered))
 :by-region (vec by-region)
 :top-products (->> delivered
                    (group-by :product)
                    (map (fn [[product orders]] [product (reduce + (map :quantity orders))]))
                    (sort-by second >)
                    (take 3)
                    vec)}
