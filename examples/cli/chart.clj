;; Revenue by region of the delivered orders, as a bar chart.
;; Run: ptc run examples/cli/chart.clj --data examples/cli/orders.json --chart revenue.png
;; The program builds the chart as data (a Vega-Lite spec); ptc renders it on the host.

(def by-region
  (->> data/orders
       (filter #(= "delivered" (:status %)))
       (group-by :region)
       (map (fn [[region orders]]
              {:region region
               :revenue (reduce + (map #(* (:quantity %) (:unit_price %)) orders))}))
       (sort-by :revenue >)))

(chart/bar by-region :region :revenue {:title "Delivered revenue by region"})
