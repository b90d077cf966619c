//! "Did you mean" suggestions for misspelt names: the closest operation,
//! constant or variable to a name the notation does not know.
//!
//! ```
//! use rcute::notation::suggest::closest;
//! assert_eq!(closest("compositon", ["composition", "complement"]), vec!["composition"]);
//! assert!(closest("B", ["A"]).is_empty());
//! ```

/// The constants a statement can name besides operations and variables.
pub const CONSTANTS: [&str; 4] = ["None", "True", "False", "_"];

/// The candidates closest to `name` (at most three, all at the smallest
/// distance found), among those within a third of `name`'s length in edit distance (adjacent
/// transpositions count once; a difference of case alone counts as
/// nothing). Names shorter than three characters get no suggestion.
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Vec<&'c str> {
    let len = name.chars().count();
    if !(3..=64).contains(&len) {
        return Vec::new();
    }
    let limit = len / 3;
    let lower = name.to_lowercase();
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != name)
        .filter_map(|c| {
            let d = distance(&lower, &c.to_lowercase());
            (d <= limit).then_some((d, c))
        })
        .collect();
    scored.sort_unstable();
    scored.dedup();
    let best = scored.first().map_or(0, |(d, _)| *d);
    scored
        .into_iter()
        .take_while(|(d, _)| *d == best)
        .take(3)
        .map(|(_, c)| c)
        .collect()
}

/// `" (did you mean 'a' or 'b'?)"` for the candidates closest to `name`,
/// or an empty string when none is close.
pub fn did_you_mean<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    let close = closest(name, candidates);
    if close.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = close.iter().map(|c| format!("'{c}'")).collect();
    format!(" (did you mean {}?)", quoted.join(" or "))
}

/// The edit distance between `a` and `b` by characters, counting an
/// adjacent transposition as one edit (optimal string alignment).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // three rows: i-2, i-1, i
    let w = b.len() + 1;
    let mut rows = vec![0usize; 3 * w];
    for (j, x) in rows.iter_mut().take(w).enumerate() {
        *x = j;
    }
    let mut prev2 = 0; // row index of i-2 (unused for i = 1)
    let mut prev = 0;
    for i in 1..=a.len() {
        let cur = (prev + 1) % 3;
        rows[cur * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev * w + j - 1] + cost)
                .min(rows[prev * w + j] + 1)
                .min(rows[cur * w + j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2 * w + j - 2] + 1);
            }
            rows[cur * w + j] = d;
        }
        prev2 = prev;
        prev = cur;
    }
    rows[prev * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("coalesc", "coalesce"), 1);
        assert_eq!(distance("colaesce", "coalesce"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("", "ab"), 2);
    }

    #[test]
    fn suggestions() {
        let ops = ["composition", "complement", "coalesce", "Layout"];
        assert_eq!(closest("compositon", ops), vec!["composition"]);
        assert_eq!(closest("layout", ops), vec!["Layout"]);
        assert!(closest("xyz", ops).is_empty());
        assert_eq!(did_you_mean("colaesce", ops), " (did you mean 'coalesce'?)");
        assert_eq!(did_you_mean("foo", ops), "");
    }
}
