"""The analyst's machine learning, `ml/`: scikit-learn's models, split and metrics, with its
answers: the same seed gives the same split, fitted model and predictions as scikit-learn given
that random_state (docs/ml.md). Data first, as Clojure's functions are, and in the order of
scikit-learn's fit(X, y), so a Python answer translates line by line:

    (let [{:keys [x-train x-test y-train y-test]} (ml/train-test-split X y {:random-state 42})
          m (ml/random-forest-classifier x-train y-train {:n-estimators 100 :random-state 42})]
      (ml/accuracy y-test (ml/predict m x-test)))

Its functions register themselves here; numpy and scikit-learn load only when a program names
one of them (registry.prepare).
"""

# registered in the order docs/ml.md lists them: split, models, their use, metrics
from . import split, models, predict, metrics  # noqa: F401,I001
