#!/usr/bin/env python3
"""Write one message module of this crate from a Kafka message schema (KSCOPE-PATCH).

Kafka's schemas (`clients/src/main/resources/common/message/*.json`, also packed
in every `kafka-clients` jar) are the facts; this writes them in the style of
the crate's own generated modules, for messages the 0.18.0 release lacks or has
at an older version. It covers what those messages use: flexible versions only
(every version compact), scalar, string, uuid, array and struct fields,
nullable strings, arrays and structs, version-gated fields, and the
`groupId` / `topicName` entity types. It refuses anything else rather than
guess.

    python3 generate.py SCHEMA.json > ../src/messages/NAME.rs

The check that it writes what upstream's generator writes: regenerating
`share_group_describe_response.rs` from its schema gives the vendored file
byte for byte (see KSCOPE-PATCH.md).
"""

import json
import re
import sys

ENTITY_TYPES = {"groupId": "super::GroupId", "topicName": "super::TopicName"}
SCALAR_ENTITY_TYPES = {("int32", "brokerId"): "super::BrokerId"}
SCALARS = {
    "int8": ("i8", "Int8"),
    "int16": ("i16", "Int16"),
    "uint16": ("u16", "UInt16"),
    "int32": ("i32", "Int32"),
    "int64": ("i64", "Int64"),
    "bool": ("bool", "Boolean"),
    "uuid": ("Uuid", "Uuid"),
}


def load(path):
    text = open(path, encoding="utf-8").read()
    # The schemas carry // comments, which JSON does not allow.
    text = "\n".join(re.sub(r"^\s*//.*$", "", line) for line in text.splitlines())
    return json.loads(text)


def parse_range(spec, top, bottom=0):
    """(low, high) of a "N", "N-M" or "N+" version spec, clipped to the message's versions."""
    if spec == "none":
        return None
    if spec.endswith("+"):
        low, high = int(spec[:-1]), top
    elif "-" in spec:
        low, high = (int(v) for v in spec.split("-"))
    else:
        low, high = int(spec), int(spec)
    return max(low, bottom), high


def show_range(r):
    return f"{r[0]}" if r[0] == r[1] else f"{r[0]}-{r[1]}"


def snake(name):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return s.lower()


class Field:
    def __init__(self, spec, top, bottom, structs):
        self.name = snake(spec["name"])
        self.about = spec.get("about", "")
        self.versions = parse_range(spec["versions"], top, bottom)
        nullable = spec.get("nullableVersions")
        self.nullable = nullable is not None
        if self.nullable and parse_range(nullable, top, bottom)[0] > self.versions[0]:
            raise SystemExit(f"{spec['name']}: nullable from a later version than the field")
        self.ignorable = str(spec.get("ignorable", "false")).lower() == "true"
        if "taggedVersions" in spec:
            raise SystemExit(f"{spec['name']}: tagged fields are not supported")
        self.default = spec.get("default")
        self.entity = None
        kind = spec["type"]
        entity = ENTITY_TYPES.get(spec.get("entityType", ""))
        self.is_array = kind.startswith("[]")
        inner = kind[2:] if self.is_array else kind
        if inner in SCALARS:
            self.inner_rust, self.inner_codec = SCALARS[inner]
            self.inner_kind = inner
            self.entity = SCALAR_ENTITY_TYPES.get((inner, spec.get("entityType", "")))
            self.inner_rust = self.entity or self.inner_rust
        elif inner == "string":
            self.inner_rust = entity or "StrBytes"
            self.inner_codec = "CompactString"
            self.inner_kind = "string"
        elif inner in ("bytes", "records", "float64"):
            raise SystemExit(f"{spec['name']}: type {inner} is not supported")
        elif not inner[:1].isupper():
            raise SystemExit(f"{spec['name']}: type {inner} is not supported")
        else:
            self.inner_rust = inner
            self.inner_codec = "struct"
            self.inner_kind = "struct"
            if "fields" in spec:
                structs[inner] = spec["fields"]

    def rust_type(self):
        t = f"Vec<{self.inner_rust}>" if self.is_array else self.inner_rust
        return f"Option<{t}>" if self.nullable else t

    def codec(self):
        if self.inner_kind == "struct":
            element = "types::Struct { version }"
            if not self.is_array and self.nullable:
                return "types::OptionStruct { version }"
        else:
            element = f"types::{self.inner_codec}"
        return f"types::CompactArray({element})" if self.is_array else element

    def default_value(self):
        d = self.default
        if self.nullable and d == "null":
            return "None"
        if self.nullable and d is None and not self.is_array and self.inner_kind == "string":
            return "Some(Default::default())"
        if self.nullable and d is None:
            return "None"
        if self.is_array or self.inner_kind in ("string", "struct"):
            return "Default::default()"
        if self.inner_kind == "uuid":
            return "Uuid::nil()"
        if self.inner_kind == "bool":
            return "true" if str(d).lower() == "true" else "false"
        number = str(int(str(d), 0)) if d is not None else "0"
        return f"({number}).into()" if self.entity else number

    def set_expr(self):
        """A Rust expression true when the field holds something other than its default."""
        value = self.default_value()
        if value == "None":
            return f"!self.{self.name}.is_none()"
        if self.is_array or self.inner_kind == "string":
            return f"!self.{self.name}.is_empty()"
        if value == "Default::default()":
            return f"self.{self.name} != Default::default()"
        if value == "false":
            return f"self.{self.name}"
        if value == "true":
            return f"!self.{self.name}"
        return f"self.{self.name} != {value}"


def doc(lines, about, versions, indent):
    out = []
    for line in (about.splitlines() or [""]):
        out.append(f"{indent}/// {line}".rstrip())
    out.append(f"{indent}///")
    out.append(f"{indent}/// Supported API versions: {show_range(versions)}")
    lines.extend(out)


def version_check(low, high):
    if low == high:
        return f"if version != {low} {{"
    return f"if version < {low} || version > {high} {{"


def write_struct(out, name, fields, msg_range, encode_feature, decode_feature):
    low, high = msg_range
    out.append(f"/// Valid versions: {show_range(msg_range)}")
    out.append("#[non_exhaustive]")
    out.append("#[derive(Debug, Clone, PartialEq)]")
    out.append(f"pub struct {name} {{")
    for f in fields:
        doc(out, f.about, f.versions, "    ")
        out.append(f"    pub {f.name}: {f.rust_type()},")
        out.append("")
    out.append("    /// Other tagged fields")
    out.append("    pub unknown_tagged_fields: BTreeMap<i32, Bytes>,")
    out.append("}")
    out.append("")
    out.append(f"impl {name} {{")
    for f in fields:
        out.append(f"    /// Sets `{f.name}` to the passed value.")
        out.append("    ///")
        doc(out, f.about, f.versions, "    ")
        out.append(f"    pub fn with_{f.name}(mut self, value: {f.rust_type()}) -> Self {{")
        out.append(f"        self.{f.name} = value;")
        out.append("        self")
        out.append("    }")
    out.append("    /// Sets unknown_tagged_fields to the passed value.")
    out.append("    pub fn with_unknown_tagged_fields(mut self, value: BTreeMap<i32, Bytes>) -> Self {")
    out.append("        self.unknown_tagged_fields = value;")
    out.append("        self")
    out.append("    }")
    out.append("    /// Inserts an entry into unknown_tagged_fields.")
    out.append("    pub fn with_unknown_tagged_field(mut self, key: i32, value: Bytes) -> Self {")
    out.append("        self.unknown_tagged_fields.insert(key, value);")
    out.append("        self")
    out.append("    }")
    out.append("}")
    out.append("")

    tagged_count = [
        "        let num_tagged_fields = self.unknown_tagged_fields.len();",
        "        if num_tagged_fields > std::u32::MAX as usize {",
        "            bail!(",
        '                "Too many tagged fields to encode ({} fields)",',
        "                num_tagged_fields",
        "            );",
        "        }",
    ]

    def gated(f, body, indent="        "):
        """Lines of `body` (a list), run only at the field's versions."""
        flow, fhigh = f.versions
        if flow <= low and fhigh >= high:
            return [indent + b for b in body]
        cond = f"version >= {flow}" if fhigh >= high else \
            (f"version <= {fhigh}" if flow <= low else f"version >= {flow} && version <= {fhigh}")
        lines = [f"{indent}if {cond} {{"] + [indent + "    " + b for b in body]
        if f.ignorable:
            lines.append(f"{indent}}}")
        else:
            lines.append(f"{indent}}} else {{")
            lines.append(f"{indent}    if {f.set_expr()} {{")
            lines.append(f'{indent}        bail!("A field is set that is not available on the selected protocol version");')
            lines.append(f"{indent}    }}")
            lines.append(f"{indent}}}")
        return lines

    out.append(f'#[cfg(feature = "{encode_feature}")]')
    out.append(f"impl Encodable for {name} {{")
    out.append("    fn encode<B: ByteBufMut>(&self, buf: &mut B, version: i16) -> Result<()> {")
    out.append(f"        {version_check(low, high)}")
    out.append('            bail!("specified version not supported by this message type");')
    out.append("        }")
    for f in fields:
        out.extend(gated(f, [f"{f.codec()}.encode(buf, &self.{f.name})?;"]))
    out.extend(tagged_count)
    out.append("        types::UnsignedVarInt.encode(buf, num_tagged_fields as u32)?;")
    out.append("")
    out.append("        write_unknown_tagged_fields(buf, 0.., &self.unknown_tagged_fields)?;")
    out.append("        Ok(())")
    out.append("    }")
    out.append("    fn compute_size(&self, version: i16) -> Result<usize> {")
    out.append("        let mut total_size = 0;")
    for f in fields:
        out.extend(gated(f, [f"total_size += {f.codec()}.compute_size(&self.{f.name})?;"]))
    out.extend(tagged_count)
    out.append("        total_size += types::UnsignedVarInt.compute_size(num_tagged_fields as u32)?;")
    out.append("")
    out.append("        total_size += compute_unknown_tagged_fields_size(&self.unknown_tagged_fields)?;")
    out.append("        Ok(total_size)")
    out.append("    }")
    out.append("}")
    out.append("")

    out.append(f'#[cfg(feature = "{decode_feature}")]')
    out.append(f"impl Decodable for {name} {{")
    out.append("    fn decode<B: ByteBuf>(buf: &mut B, version: i16) -> Result<Self> {")
    out.append(f"        {version_check(low, high)}")
    out.append('            bail!("specified version not supported by this message type");')
    out.append("        }")
    for f in fields:
        flow, fhigh = f.versions
        if flow <= low and fhigh >= high:
            out.append(f"        let {f.name} = {f.codec()}.decode(buf)?;")
        else:
            cond = f"version >= {flow}" if fhigh >= high else \
                (f"version <= {fhigh}" if flow <= low else f"version >= {flow} && version <= {fhigh}")
            out.append(f"        let {f.name} = if {cond} {{")
            out.append(f"            {f.codec()}.decode(buf)?")
            out.append("        } else {")
            out.append(f"            {f.default_value()}")
            out.append("        };")
    out.append("        let mut unknown_tagged_fields = BTreeMap::new();")
    out.append("        let num_tagged_fields = types::UnsignedVarInt.decode(buf)?;")
    out.append("        for _ in 0..num_tagged_fields {")
    out.append("            let tag: u32 = types::UnsignedVarInt.decode(buf)?;")
    out.append("            let size: u32 = types::UnsignedVarInt.decode(buf)?;")
    out.append("            let unknown_value = types::decode_unknown_tagged_field(buf, size)?; // KSCOPE-PATCH: budgeted")
    out.append("            unknown_tagged_fields.insert(tag as i32, unknown_value);")
    out.append("        }")
    out.append("        Ok(Self {")
    for f in fields:
        out.append(f"            {f.name},")
    out.append("            unknown_tagged_fields,")
    out.append("        })")
    out.append("    }")
    out.append("}")
    out.append("")

    out.append(f"impl Default for {name} {{")
    out.append("    fn default() -> Self {")
    out.append("        Self {")
    for f in fields:
        out.append(f"            {f.name}: {f.default_value()},")
    out.append("            unknown_tagged_fields: BTreeMap::new(),")
    out.append("        }")
    out.append("    }")
    out.append("}")
    out.append("")
    out.append(f"impl Message for {name} {{")
    out.append(f"    const VERSIONS: VersionRange = VersionRange {{ min: {low}, max: {high} }};")
    out.append("    const DEPRECATED_VERSIONS: Option<VersionRange> = None;")
    out.append("}")
    out.append("")


def main():
    schema = load(sys.argv[1])
    name = schema["name"]
    msg_range = parse_range(schema["validVersions"], None)
    if msg_range[1] is None:
        raise SystemExit("validVersions must be bounded")
    flexible = parse_range(schema.get("flexibleVersions", "none"), msg_range[1])
    if flexible is None or flexible[0] > msg_range[0]:
        raise SystemExit("only messages flexible at every version are supported")
    kind = schema["type"]
    encode_feature, decode_feature = ("client", "broker") if kind == "request" else ("broker", "client")

    structs = {}
    top_fields = [Field(f, msg_range[1], msg_range[0], structs) for f in schema["fields"]]
    for common in schema.get("commonStructs", []):
        structs.setdefault(common["name"], common["fields"])
    parsed = {name: top_fields}
    pending = list(structs)
    while pending:
        sname = pending.pop()
        if sname in parsed:
            continue
        found = {}
        parsed[sname] = [Field(f, msg_range[1], msg_range[0], found) for f in structs[sname]]
        for inner, fields in found.items():
            structs.setdefault(inner, fields)
            pending.append(inner)

    out = [
        f"//! {name}",
        "//!",
        f"//! See the schema for this message [here](https://github.com/apache/kafka/blob/trunk/clients/src/main/resources/common/message/{name}.json).",
        "// WARNING: the items of this module are generated and should not be edited directly",
        "#![allow(unused)]",
        "",
        "use std::borrow::Borrow;",
        "use std::collections::BTreeMap;",
        "",
        "use anyhow::{bail, Result};",
        "use bytes::Bytes;",
        "use uuid::Uuid;",
        "",
        "use crate::protocol::{",
        "    buf::{ByteBuf, ByteBufMut},",
        "    compute_unknown_tagged_fields_size, types, write_unknown_tagged_fields, Decodable, Decoder,",
        "    Encodable, Encoder, HeaderVersion, Message, StrBytes, VersionRange,",
        "};",
        "",
    ]
    for sname in sorted(parsed):
        write_struct(out, sname, parsed[sname], msg_range, encode_feature, decode_feature)
    header = 2 if kind == "request" else 1
    out.append(f"impl HeaderVersion for {name} {{")
    out.append("    fn header_version(version: i16) -> i16 {")
    out.append(f"        {header}")
    out.append("    }")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
