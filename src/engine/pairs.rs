//! A map of a few entries (the calls in flight, the servers asked for their window) kept as
//! a list of pairs in insertion order. The standard `HashMap` linked its hashing, random seed
//! and table code into the first load for maps that never hold more than a handful.

/// Keys are compared by `==`; a key is held at most once.
pub struct Pairs<K, V>(Vec<(K, V)>);

impl<K, V> Default for Pairs<K, V> {
    fn default() -> Self {
        Pairs(Vec::new())
    }
}

impl<K: PartialEq, V> Pairs<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value`, in place when the key is held already.
    pub fn insert(&mut self, key: K, value: V) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// The entries in the order their keys were first inserted.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::Pairs;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn holds_each_key_once_in_insertion_order() {
        let mut m = Pairs::new();
        assert_eq!(m.keys().count(), 0);
        m.insert(3, "c");
        m.insert(1, "a");
        m.insert(3, "C");
        assert_eq!(m.keys().count(), 2);
        assert_eq!(m.get(&3), Some(&"C"));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), [3, 1]);
        assert_eq!(m.remove(&3), Some("C"));
        assert_eq!(m.remove(&3), None);
        assert_eq!(m.get(&3), None);
        m.insert(2, "b");
        assert_eq!(m.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(), [(1, "a"), (2, "b")]);
    }
}
