//! Reading enums that mix externally tagged variants with untagged ones, without buffering.
//!
//! The journal stores the core's events externally tagged (`{"user_message":{…}}`,
//! `"skip_llm"`) and a mode's own actions in their own tagged form at the same level
//! (`{"choose_design":{…}}`). serde's derive reads such a mix by first buffering every event
//! into a generic `Content` tree and then trying each reading; in the wasm that buffering was
//! instantiated for every type an event holds. Here the tag is read first and decides which
//! derived reader gets the value, straight from the JSON.

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, VariantAccess, Visitor};
use serde::forward_to_deserialize_any;

/// An enum value whose tag was read already: the tag, and access to the value under it. Any
/// derived enum reads from it as from the stored value itself.
pub struct Resumed<'a, V> {
    pub tag: &'a str,
    pub value: V,
}

impl<'de, 'a, A: VariantAccess<'de>> de::Deserializer<'de> for Resumed<'a, A> {
    type Error = A::Error;

    fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, A::Error> {
        visitor.visit_enum(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, 'a, V: VariantAccess<'de>> EnumAccess<'de> for Resumed<'a, V> {
    type Error = V::Error;
    type Variant = V;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, V), V::Error> {
        let tag: StrDeserializer<'_, V::Error> = self.tag.into_deserializer();
        Ok((seed.deserialize(tag)?, self.value))
    }
}

/// The value of an object's one key, once the key was read: `{"tag": value}`.
pub struct UnderKey<M>(pub M);

impl<'de, M: MapAccess<'de>> VariantAccess<'de> for UnderKey<M> {
    type Error = M::Error;

    fn unit_variant(mut self) -> Result<(), M::Error> {
        self.0.next_value::<()>()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(mut self, seed: S) -> Result<S::Value, M::Error> {
        self.0.next_value_seed(seed)
    }

    fn tuple_variant<W: Visitor<'de>>(mut self, len: usize, visitor: W) -> Result<W::Value, M::Error> {
        self.0.next_value_seed(Shaped::Tuple(len, visitor))
    }

    fn struct_variant<W: Visitor<'de>>(
        mut self,
        fields: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, M::Error> {
        self.0.next_value_seed(Shaped::Struct(fields, visitor))
    }
}

/// A variant's value read as the tuple or struct it is.
enum Shaped<W> {
    Tuple(usize, W),
    Struct(&'static [&'static str], W),
}

impl<'de, W: Visitor<'de>> DeserializeSeed<'de> for Shaped<W> {
    type Value = W::Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<W::Value, D::Error> {
        match self {
            Shaped::Tuple(len, visitor) => deserializer.deserialize_tuple(len, visitor),
            Shaped::Struct(fields, visitor) => deserializer.deserialize_struct("", fields, visitor),
        }
    }
}

/// After a tagged value: the object must end there (one tag per value).
pub fn end<'de, M: MapAccess<'de>>(mut map: M) -> Result<(), M::Error> {
    match map.next_key::<de::IgnoredAny>()? {
        None => Ok(()),
        Some(_) => Err(de::Error::custom("a tagged value has one key")),
    }
}
