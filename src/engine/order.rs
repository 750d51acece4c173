//! Stable sorting through one shared sort. The standard library's sort is compiled again
//! for every element type and key (about 4 KB of wasm each, 57 KB over the app's sorts);
//! these sort `(key, position)` pairs instead, so the sort itself is compiled once.

/// Sorts `items` by `key`, smallest first, keeping items with equal keys in their order.
pub fn sort_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u128) {
    let mut keys: Vec<(u128, usize)> = items.iter().enumerate().map(|(i, item)| (key(item), i)).collect();
    // The position makes every pair distinct, so the unstable sort keeps equal keys in order.
    keys.sort_unstable();
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(keys.into_iter().filter_map(|(_, i)| slots[i].take()));
}

/// Sorts strings in the standard order (by their bytes): the shared sort on their first 16
/// bytes, then an insertion pass that only has to order strings sharing those bytes.
pub fn sort_strings(items: &mut Vec<String>) {
    sort_by_key(items, |s| {
        let mut prefix = [0u8; 16];
        let bytes = s.as_bytes();
        let n = bytes.len().min(16);
        prefix[..n].copy_from_slice(&bytes[..n]);
        u128::from_be_bytes(prefix)
    });
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A key that sorts `high` first and `low` among equal `high`s.
pub fn pair(high: u64, low: u64) -> u128 {
    (u128::from(high) << 64) | u128::from(low)
}

/// A key that sorts larger values first.
pub fn descending(value: u64) -> u64 {
    u64::MAX - value
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sorts_by_the_key_and_keeps_ties_in_order() {
        let mut items = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e'), (0, 'f')];
        let mut expected = items.clone();
        expected.sort_by_key(|i| i.0);
        sort_by_key(&mut items, |i| i.0 as u128);
        assert_eq!(items, expected);
        assert_eq!(items.iter().map(|i| i.1).collect::<String>(), "fbedac");

        let mut none: Vec<u8> = Vec::new();
        sort_by_key(&mut none, |i| u128::from(*i));
        assert!(none.is_empty());
    }

    #[test]
    fn strings_sort_as_the_standard_sort_does() {
        let words = [
            "gpt-4o",
            "gpt-4o-mini",
            "",
            "a",
            "ab",
            "ab\0",
            "abcdefghijklmnopq",
            "abcdefghijklmnopa",
            "abcdefghijklmnop",
            "claude-3-5-sonnet-20241022",
            "claude-3-5-sonnet-20240620",
            "llama3.1:8b",
            "상담",
            "상",
            "Z",
            "z",
            "a",
        ];
        let mut items: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let mut expected = items.clone();
        expected.sort();
        sort_strings(&mut items);
        assert_eq!(items, expected);
        items.reverse();
        sort_strings(&mut items);
        assert_eq!(items, expected);
    }

    #[test]
    fn keys_compose_and_reverse() {
        let mut items = vec![(5u64, 2u64), (7, 9), (5, 1), (7, 0)];
        sort_by_key(&mut items, |&(a, b)| pair(descending(a), b));
        assert_eq!(items, vec![(7, 0), (7, 9), (5, 1), (5, 2)]);
        assert!(pair(1, 0) > pair(0, u64::MAX));
        assert!(descending(0) > descending(u64::MAX));
    }
}
