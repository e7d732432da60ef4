"""Produce Confluent-framed records with the Python client's own schema-registry
serializers (confluent-kafka[schemaregistry], installed by the tests into the
kscope cache dir), and print, one JSON line per record, the value each record
was produced with, in the form kscope renders it.

usage: produce.py BOOTSTRAP REGISTRY_URL TOPIC MODE
  avro       3 Avro records (logical types, nested record, union, enum, array, map)
  protobuf   2 records of shop.Order, 1 of the nested shop.Order.Line (index [0, 0]),
             1 of shop.Refund (index [1]); shop.Order imports common/money.proto (a reference)
  jsonschema 2 JSON Schema records
  raw HEX    one record whose value is these bytes (no serializer)
  hex        no Kafka: register two Avro schemas (subjects TOPIC-a-value and
             TOPIC-b-value) and print each framed value in hex, then its JSON
"""
import base64
import datetime
import decimal
import json
import sys
import uuid

from confluent_kafka import Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.serialization import MessageField, SerializationContext

bootstrap, registry_url, topic, mode = sys.argv[1:5]
registry = SchemaRegistryClient({"url": registry_url})
producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
UTC = datetime.timezone.utc


def send(value_bytes, key=None):
    producer.produce(topic, key=key, value=value_bytes, partition=0)


def done(expected):
    left = producer.flush(30)
    if left:
        sys.exit(f"{left} records not delivered")
    for e in expected:
        print(json.dumps(e, sort_keys=True))


def ctx():
    return SerializationContext(topic, MessageField.VALUE)


if mode == "avro":
    from confluent_kafka.schema_registry.avro import AvroSerializer

    schema = json.dumps({
        "type": "record", "name": "Payment", "namespace": "shop",
        "fields": [
            {"name": "id", "type": "string"},
            {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
            {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "day", "type": {"type": "int", "logicalType": "date"}},
            {"name": "ref", "type": {"type": "string", "logicalType": "uuid"}},
            {"name": "count", "type": "int"},
            {"name": "big", "type": "long"},
            {"name": "ratio", "type": "double"},
            {"name": "ok", "type": "boolean"},
            {"name": "note", "type": ["null", "string"], "default": None},
            {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["CARD", "CASH"]}},
            {"name": "tags", "type": {"type": "array", "items": "string"}},
            {"name": "attrs", "type": {"type": "map", "values": "long"}},
            {"name": "raw", "type": "bytes"},
            {"name": "payer", "type": {"type": "record", "name": "Payer", "fields": [
                {"name": "name", "type": "string"}, {"name": "age", "type": ["null", "int"]}]}},
        ],
    })
    ser = AvroSerializer(registry, schema)
    expected = []
    for i in range(3):
        at = datetime.datetime(2024, 1, 1, 12, 30, i, 123000, tzinfo=UTC)
        ref = uuid.UUID(int=i + 1)
        value = {
            "id": f"p-{i}", "amount": decimal.Decimal(f"{i}12.5{i}"), "at": at,
            "day": datetime.date(2024, 2, 1 + i), "ref": str(ref), "count": -i, "big": 2**40 + i,
            "ratio": 0.5 + i, "ok": i % 2 == 0, "note": None if i == 1 else f"n{i}",
            "kind": "CASH" if i else "CARD", "tags": ["a", f"t{i}"], "attrs": {"x": i, "y": 7},
            "raw": bytes([0, 255, i]), "payer": {"name": f"ann{i}", "age": None if i else 30},
        }
        send(ser(value, ctx()), key=f"k{i}")
        expected.append({
            **value, "amount": str(value["amount"]),
            "at": at.strftime("%Y-%m-%dT%H:%M:%S") + ".123Z",
            "day": value["day"].isoformat(), "raw": base64.b64encode(value["raw"]).decode(),
        })
    done(expected)
elif mode == "protobuf":
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer

    pool = descriptor_pool.DescriptorPool()
    F = descriptor_pb2.FieldDescriptorProto
    common = descriptor_pb2.FileDescriptorProto(name="common/money.proto", package="common", syntax="proto3")
    money = common.message_type.add(name="Money")
    money.field.add(name="currency", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    money.field.add(name="units", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    pool.Add(common)
    shop = descriptor_pb2.FileDescriptorProto(name="shop/order.proto", package="shop", syntax="proto3",
                                              dependency=["common/money.proto"])
    order = shop.message_type.add(name="Order")
    order.field.add(name="order_id", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    order.field.add(name="total", number=2, type=F.TYPE_MESSAGE, type_name=".common.Money", label=F.LABEL_OPTIONAL)
    order.field.add(name="lines", number=3, type=F.TYPE_MESSAGE, type_name=".shop.Order.Line", label=F.LABEL_REPEATED)
    order.field.add(name="quantity", number=4, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    line = order.nested_type.add(name="Line")
    line.field.add(name="sku", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    line.field.add(name="count", number=2, type=F.TYPE_UINT32, label=F.LABEL_OPTIONAL)
    refund = shop.message_type.add(name="Refund")
    refund.field.add(name="order_id", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    refund.field.add(name="cents", number=2, type=F.TYPE_SINT64, label=F.LABEL_OPTIONAL)
    pool.Add(shop)
    Order = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Order"))
    Line = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Order.Line"))
    Refund = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Refund"))
    conf = {"use.deprecated.format": False}

    def as_json(msg):
        """The message as kscope renders it: every field, .proto names, 64-bit integers as numbers."""
        out = {}
        for field in msg.DESCRIPTOR.fields:
            value = getattr(msg, field.name)
            one = (lambda v: as_json(v)) if field.type == F.TYPE_MESSAGE else (lambda v: v)
            repeated = field.is_repeated
            out[field.name] = [one(v) for v in value] if repeated else one(value)
        return out

    expected = []
    ser = ProtobufSerializer(Order, registry, conf)
    for i in range(2):
        msg = Order(order_id=f"o{i}", total={"currency": "EUR", "units": 1000 + i},
                    lines=[Line(sku=f"s{i}", count=i + 1)], quantity=i)
        send(ser(msg, ctx()))
        expected.append(as_json(msg))
    for cls, msg in [(Line, Line(sku="nested", count=9)), (Refund, Refund(order_id="o1", cents=-250))]:
        ser = ProtobufSerializer(cls, registry, conf)
        send(ser(msg, ctx()))
        expected.append(as_json(msg))
    done(expected)
elif mode == "jsonschema":
    from confluent_kafka.schema_registry.json_schema import JSONSerializer

    schema = json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Event", "type": "object",
                         "properties": {"name": {"type": "string"}, "n": {"type": "integer"}}})
    ser = JSONSerializer(schema, registry)
    expected = []
    for i in range(2):
        value = {"name": f"e{i}", "n": i}
        send(ser(value, ctx()))
        expected.append(value)
    done(expected)
elif mode == "raw":
    send(bytes.fromhex(sys.argv[5]))
    done([])
elif mode == "hex":
    from confluent_kafka.schema_registry.avro import AvroSerializer

    for part in ["a", "b"]:
        schema = json.dumps({"type": "record", "name": f"Rec{part.upper()}",
                             "fields": [{"name": "part", "type": "string"}, {"name": "n", "type": "long"}]})
        ser = AvroSerializer(registry, schema)
        value = {"part": part, "n": 41 if part == "a" else 42}
        data = ser(value, SerializationContext(f"{topic}-{part}", MessageField.VALUE))
        print(data.hex())
        print(json.dumps(value, sort_keys=True))
else:
    sys.exit(f"unknown mode {mode}")
