package dev.pointsman.picker.scheduling;

import java.util.List;

/**
 * Why a decision went where it did: each scorer's score for each candidate, the weights, and the
 * weighted totals. Arrays are owned by this object; callers must not modify them.
 *
 * @param scorers scorer type names, in policy order
 * @param weights scorer weights, same order
 * @param candidates candidate addresses
 * @param scores {@code scores[s][c]}: scorer s's score of candidate c
 * @param totals weighted sum per candidate
 * @param chosen index of the chosen candidate
 */
public record Explanation(
    List<String> scorers,
    double[] weights,
    List<String> candidates,
    double[][] scores,
    double[] totals,
    int chosen) {}
