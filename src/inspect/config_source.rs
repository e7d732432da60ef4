//! What a config entry's source, type and resource are on the wire, and
//! their names (the Java admin client's, so scripts can share them).

/// Where a config's value comes from (`ConfigSource` of `DescribeConfigs`
/// v1+). Every source Kafka 4.x reports has a variant; a newer one keeps
/// its wire value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConfigSource {
    /// Set on the topic (`kafka-configs --entity-type topics --alter`).
    DynamicTopic,
    /// Set dynamically for this one broker.
    DynamicBroker,
    /// Set dynamically as the default for every broker.
    DynamicDefaultBroker,
    /// From the broker's `server.properties`.
    StaticBroker,
    /// Kafka's built-in default.
    Default,
    /// A broker logger's level set dynamically.
    DynamicBrokerLogger,
    /// A client-metrics subscription's setting.
    ClientMetrics,
    /// Set on a consumer or share group.
    Group,
    /// A value this client does not know (0 is Kafka's own `UNKNOWN`).
    Unknown(i8),
}

impl ConfigSource {
    /// The source for a wire value.
    pub fn from_wire(value: i8) -> ConfigSource {
        match value {
            1 => ConfigSource::DynamicTopic,
            2 => ConfigSource::DynamicBroker,
            3 => ConfigSource::DynamicDefaultBroker,
            4 => ConfigSource::StaticBroker,
            5 => ConfigSource::Default,
            6 => ConfigSource::DynamicBrokerLogger,
            7 => ConfigSource::ClientMetrics,
            8 => ConfigSource::Group,
            other => ConfigSource::Unknown(other),
        }
    }

    /// The Java admin client's name: `DYNAMIC_TOPIC_CONFIG`, `DEFAULT_CONFIG`, …
    pub fn name(self) -> &'static str {
        match self {
            ConfigSource::DynamicTopic => "DYNAMIC_TOPIC_CONFIG",
            ConfigSource::DynamicBroker => "DYNAMIC_BROKER_CONFIG",
            ConfigSource::DynamicDefaultBroker => "DYNAMIC_DEFAULT_BROKER_CONFIG",
            ConfigSource::StaticBroker => "STATIC_BROKER_CONFIG",
            ConfigSource::Default => "DEFAULT_CONFIG",
            ConfigSource::DynamicBrokerLogger => "DYNAMIC_BROKER_LOGGER_CONFIG",
            ConfigSource::ClientMetrics => "CLIENT_METRICS_CONFIG",
            ConfigSource::Group => "GROUP_CONFIG",
            ConfigSource::Unknown(_) => "UNKNOWN",
        }
    }
}

/// The declared type of a config (`DescribeConfigs` v3+).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigType {
    /// `true` / `false`.
    Boolean,
    /// Free text.
    String,
    /// 32-bit integer.
    Int,
    /// 16-bit integer.
    Short,
    /// 64-bit integer.
    Long,
    /// Floating point.
    Double,
    /// Comma-separated list.
    List,
    /// A Java class name.
    Class,
    /// A secret.
    Password,
    /// Not reported (before v3) or a value this client does not know.
    Unknown,
}

impl ConfigType {
    /// The type for a wire value.
    pub fn from_wire(value: i8) -> ConfigType {
        match value {
            1 => ConfigType::Boolean,
            2 => ConfigType::String,
            3 => ConfigType::Int,
            4 => ConfigType::Short,
            5 => ConfigType::Long,
            6 => ConfigType::Double,
            7 => ConfigType::List,
            8 => ConfigType::Class,
            9 => ConfigType::Password,
            _ => ConfigType::Unknown,
        }
    }

    /// Kafka's name: `BOOLEAN`, `LONG`, …
    pub fn name(self) -> &'static str {
        match self {
            ConfigType::Boolean => "BOOLEAN",
            ConfigType::String => "STRING",
            ConfigType::Int => "INT",
            ConfigType::Short => "SHORT",
            ConfigType::Long => "LONG",
            ConfigType::Double => "DOUBLE",
            ConfigType::List => "LIST",
            ConfigType::Class => "CLASS",
            ConfigType::Password => "PASSWORD",
            ConfigType::Unknown => "UNKNOWN",
        }
    }
}

/// What a set of configs belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConfigResource {
    /// A topic, by name.
    Topic(String),
    /// One broker, by node id (asked of that broker itself: only it knows
    /// its static configs).
    Broker(i32),
    /// The cluster-wide dynamic broker defaults (the broker resource with an
    /// empty name).
    BrokerDefaults,
    /// A group's own configs (KIP-848 / KIP-932 / KIP-1071, Kafka 4.0+:
    /// `consumer.session.timeout.ms`, `share.auto.offset.reset`,
    /// `streams.num.standby.replicas`, …); older brokers refuse the resource.
    Group(String),
}

impl ConfigResource {
    /// `resource_type` on the wire (`TOPIC` 2, `BROKER` 4, `GROUP` 32).
    pub fn wire_type(&self) -> i8 {
        match self {
            ConfigResource::Topic(_) => 2,
            ConfigResource::Broker(_) | ConfigResource::BrokerDefaults => 4,
            ConfigResource::Group(_) => 32,
        }
    }

    /// `resource_name` on the wire.
    pub fn wire_name(&self) -> String {
        match self {
            ConfigResource::Topic(name) | ConfigResource::Group(name) => name.clone(),
            ConfigResource::Broker(id) => id.to_string(),
            ConfigResource::BrokerDefaults => String::new(),
        }
    }

    /// The broker that must answer for it, if one must.
    pub fn node(&self) -> Option<i32> {
        match self {
            ConfigResource::Broker(id) => Some(*id),
            ConfigResource::Topic(_)
            | ConfigResource::BrokerDefaults
            | ConfigResource::Group(_) => None,
        }
    }
}

/// The resource as people read it: `topic 'orders'`, `broker 1`; names as
/// `--anonymize` shows them.
impl std::fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::anonymize::{self, Kind};
        match self {
            ConfigResource::Topic(name) => {
                write!(f, "topic '{}'", anonymize::name(Kind::Topic, name))
            }
            ConfigResource::Broker(id) => write!(f, "broker {id}"),
            ConfigResource::BrokerDefaults => f.write_str("the cluster-wide broker defaults"),
            ConfigResource::Group(name) => {
                write!(f, "group '{}'", anonymize::name(Kind::Group, name))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_kafka_reports_has_its_java_name() {
        let names: Vec<&str> = (0..=9).map(|v| ConfigSource::from_wire(v).name()).collect();
        assert_eq!(
            names,
            [
                "UNKNOWN",
                "DYNAMIC_TOPIC_CONFIG",
                "DYNAMIC_BROKER_CONFIG",
                "DYNAMIC_DEFAULT_BROKER_CONFIG",
                "STATIC_BROKER_CONFIG",
                "DEFAULT_CONFIG",
                "DYNAMIC_BROKER_LOGGER_CONFIG",
                "CLIENT_METRICS_CONFIG",
                "GROUP_CONFIG",
                "UNKNOWN",
            ]
        );
        assert_eq!(ConfigSource::from_wire(9), ConfigSource::Unknown(9));
        assert_eq!(ConfigType::from_wire(9).name(), "PASSWORD");
    }

    #[test]
    fn resources_name_themselves_on_the_wire_and_in_messages() {
        let topic = ConfigResource::Topic("orders".to_owned());
        assert_eq!(
            (topic.wire_type(), topic.wire_name()),
            (2, "orders".to_owned())
        );
        assert_eq!(topic.node(), None);
        let broker = ConfigResource::Broker(2);
        assert_eq!(
            (broker.wire_type(), broker.wire_name()),
            (4, "2".to_owned())
        );
        assert_eq!(broker.node(), Some(2));
        assert_eq!(ConfigResource::BrokerDefaults.wire_name(), "");
        assert_eq!(broker.to_string(), "broker 2");
    }
}
