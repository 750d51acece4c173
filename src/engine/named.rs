//! Serde for enums of unit variants stored by name ("ko", "openai_compatible", "timeout").
//!
//! What `#[derive(Serialize, Deserialize)]` writes for such an enum is the same string,
//! but its reader is a visitor per enum and per JSON reader, about 1 KB of wasm each. Here
//! every enum shares one reader per JSON reader ([`pick`]): it reads a string and looks it
//! up in the enum's list of names. An unknown name is refused with serde's usual message
//! ("unknown variant `x`, expected one of …").

use serde::de::{Deserialize, Deserializer, Error};

/// The position of the string `d` holds in `names`.
pub fn pick<'de, D: Deserializer<'de>>(d: D, names: &'static [&'static str]) -> Result<usize, D::Error> {
    let name = String::deserialize(d)?;
    names.iter().position(|n| *n == name).ok_or_else(|| D::Error::unknown_variant(&name, names))
}

/// Implements `Serialize` and `Deserialize` for an enum of unit variants, each stored as
/// the name given: `by_name!(Lang { Ko = "ko", En = "en" });`. The same names are the
/// enum's `name()` and `from_name()` (a form's option values use them too).
macro_rules! by_name {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        #[allow(dead_code)]
        impl $ty {
            /// Every variant, and its stored name, in variant order.
            const VARIANTS: &'static [$ty] = &[$($ty::$variant),+];
            const NAMES: &'static [&'static str] = &[$($name),+];

            /// The variant's stored name.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }

            /// The variant stored as `name`, if any.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::NAMES.iter().position(|n| *n == name).map(|at| Self::VARIANTS[at])
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::engine::named::pick(d, Self::NAMES).map(|at| Self::VARIANTS[at])
            }
        }
    };
}
pub(crate) use by_name;

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Fruit {
        Apple,
        BloodOrange,
    }
    super::by_name!(Fruit { Apple = "apple", BloodOrange = "blood_orange" });

    #[test]
    fn names_are_written_and_read_back_and_an_unknown_name_is_refused_by_name() {
        for (fruit, json) in [(Fruit::Apple, "\"apple\""), (Fruit::BloodOrange, "\"blood_orange\"")] {
            assert_eq!(serde_json::to_string(&fruit).unwrap(), json);
            assert_eq!(serde_json::from_str::<Fruit>(json).unwrap(), fruit);
            assert_eq!(
                serde_json::from_value::<Fruit>(serde_json::Value::from(json.trim_matches('"'))).unwrap(),
                fruit
            );
        }
        assert_eq!(Fruit::BloodOrange.name(), "blood_orange");
        assert_eq!(Fruit::from_name("blood_orange"), Some(Fruit::BloodOrange));
        assert_eq!(Fruit::from_name("pear"), None);
        let err = serde_json::from_str::<Fruit>("\"pear\"").unwrap_err().to_string();
        assert!(err.contains("unknown variant `pear`") && err.contains("blood_orange"), "{err}");
        assert!(serde_json::from_str::<Fruit>("3").is_err());
        assert!(serde_json::from_str::<Fruit>("\"Apple\"").is_err(), "names are exact");
        // An escaped name is still the name.
        assert_eq!(serde_json::from_str::<Fruit>("\"\\u0061pple\"").unwrap(), Fruit::Apple);
    }

    /// The stored names are the ones the derived serde wrote before: saved conversations,
    /// settings and exports keep reading.
    #[test]
    fn the_app_enums_keep_their_stored_names() {
        use crate::engine::call::FailureKind as F;
        use crate::engine::lang::Lang;
        use crate::engine::session::ModeKind as M;
        use crate::llm::ProviderKind as P;
        fn check<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(all: &[(T, &str)]) {
            for (value, name) in all {
                let json = format!("\"{name}\"");
                assert_eq!(serde_json::to_string(value).unwrap(), json);
                assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), value);
            }
        }
        check(&[(Lang::Ko, "ko"), (Lang::En, "en")]);
        check(&[(M::Discussion, "discussion"), (M::Chat, "chat"), (M::Counseling, "counseling")]);
        check(&[(P::OpenAi, "openai"), (P::Anthropic, "anthropic"), (P::OpenAiCompatible, "openai_compatible")]);
        check(&[
            (F::Auth, "auth"),
            (F::NotFound, "not_found"),
            (F::RateLimited, "rate_limited"),
            (F::Server, "server"),
            (F::BadRequest, "bad_request"),
            (F::Timeout, "timeout"),
            (F::Network, "network"),
            (F::Interrupted, "interrupted"),
            (F::Malformed, "malformed"),
            (F::Empty, "empty"),
            (F::Unusable, "unusable"),
            (F::Aborted, "aborted"),
        ]);
    }
}
