// Classifies wines with the compiled scikit-learn pipeline (model.onnx:
// StandardScaler -> CastTransformer -> RandomForestClassifier, trained on
// scikit-learn's wine data; see make_model.py).
//   wine_demo F1 ... F13     one wine, its 13 features as arguments
//   wine_demo < rows.txt     one wine per line, 13 numbers each
// Prints per wine what scikit-learn's predict() and predict_proba() give:
//   label 1 probabilities 0.050000 0.900000 0.050000
#include "wine_pipeline.h"

#include <cstdio>
#include <cstdlib>

static void classify(const wine_pipeline::Input0 &features) {
  static wine_pipeline::Workspace workspace; // kWorkspaceBytes, caller-owned
  wine_pipeline::Output0 label;              // std::int64_t[1]
  wine_pipeline::Output1 probabilities;      // float[1][3]
  wine_pipeline::predict(features, label, probabilities, workspace);
  std::printf("label %lld probabilities", static_cast<long long>(label[0]));
  for (float p : probabilities[0])
    std::printf(" %.6f", p);
  std::printf("\n");
}

int main(int argc, char **argv) {
  constexpr int kFeatures = int(wine_pipeline::kInput0Shape[1]); // 13
  wine_pipeline::Input0 features; // double[1][13]: one row (DIMS X:0=1)
  if (argc == kFeatures + 1) {
    for (int i = 0; i < kFeatures; ++i) {
      char *end;
      features[0][i] = std::strtod(argv[i + 1], &end);
      if (*end != '\0' || end == argv[i + 1]) {
        std::fprintf(stderr, "wine_demo: not a number: '%s'\n", argv[i + 1]);
        return 2;
      }
    }
    classify(features);
    return 0;
  }
  if (argc != 1) {
    std::fprintf(stderr, "usage: wine_demo F1 ... F%d, or rows of %d numbers on stdin\n",
                 kFeatures, kFeatures);
    return 2;
  }
  for (int row = 0;; ++row) {
    for (int i = 0; i < kFeatures; ++i) {
      double value;
      if (std::scanf("%lf", &value) == 1) {
        features[0][i] = value;
        continue;
      }
      if (i == 0 && std::feof(stdin))
        return 0;
      std::fprintf(stderr, "wine_demo: row %d: expected %d numbers\n", row, kFeatures);
      return 1;
    }
    classify(features);
  }
}
