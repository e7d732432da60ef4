//! The `screens!` macro behind the one dispatch line per screen: from
//! `Variant => module::Shown` it declares the module and writes every
//! per-screen `match`, so each lists every screen and the compiler checks
//! that none is forgotten.

/// Declare the screen modules and their wrappers: [`Screen`](super::Screen),
/// [`Msg`](super::Msg), [`Query`](super::Query), [`Stores`](super::Stores)
/// and [`fetch`](super::fetch).
macro_rules! screens {
    ($($variant:ident => $module:ident :: $shown:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// A screen that is its own module, with what it shows.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Screen {
            $(
                #[doc = concat!("The `", stringify!($module), "` screen.")]
                $variant($module::$shown),
            )+
        }

        /// A message for one screen's store (inside `Action::Screen`).
        #[derive(Debug, Clone)]
        pub enum Msg {
            $(
                #[doc = concat!("For the `", stringify!($module), "` store.")]
                $variant(<$module::$shown as Module>::Msg),
            )+
        }

        /// A fetch one screen asks of the worker (inside `Effect::Query`).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Query {
            $(
                #[doc = concat!("Asked by the `", stringify!($module), "` screen.")]
                $variant(<$module::$shown as Module>::Query),
            )+
        }

        /// Every screen module's cluster-scoped store: `:ctx` replaces it
        /// whole.
        #[derive(Debug, Default)]
        pub struct Stores {
            $(
                #[doc = concat!("The `", stringify!($module), "` screen's data.")]
                pub $module: <$module::$shown as Module>::Store,
            )+
        }

        impl Query {
            /// Which running fetch it replaces: the one of its module and
            /// [`Module::lane`].
            pub fn lane(&self) -> (std::mem::Discriminant<Query>, u8) {
                let lane = match self {
                    $(Query::$variant(q) => <$module::$shown as Module>::lane(q),)+
                };
                (std::mem::discriminant(self), lane)
            }
        }

        impl Screen {
            /// The title above the table: the names from the cluster
            /// escaped (and pseudonyms under `--anonymize`, which each
            /// module's title gives).
            pub fn title(&self) -> String {
                crate::untrusted::escaped(match self {
                    $(Screen::$variant(s) => s.title(),)+
                })
            }

            /// The headers of the screen's column table.
            pub fn headers(&self) -> Vec<&'static str> {
                match self {
                    $(Screen::$variant(s) => s.headers(),)+
                }
            }

            /// Whether Enter opens something from a row.
            pub fn drillable(&self) -> bool {
                match self {
                    $(Screen::$variant(s) => s.drillable(),)+
                }
            }

            /// Whether its list opens sorted last first.
            pub fn descending(&self) -> bool {
                match self {
                    $(Screen::$variant(_) => <$module::$shown as Module>::DESCENDING,)+
                }
            }

            /// The column its list opens sorted by.
            pub fn sort_column(&self) -> usize {
                match self {
                    $(Screen::$variant(_) => <$module::$shown as Module>::SORT_COLUMN,)+
                }
            }

            /// Whether it asks only while the cluster is connected (its
            /// fetch runs against the cluster).
            pub fn needs_cluster(&self) -> bool {
                match self {
                    $(Screen::$variant(_) => {
                        <<$module::$shown as Module>::Source as Source>::NEEDS_CLUSTER
                    })+
                }
            }

            /// Its module, as [`Seen`] names it: the shown type's id.
            pub fn module_id(&self) -> std::any::TypeId {
                match self {
                    $(Screen::$variant(_) => std::any::TypeId::of::<$module::$shown>(),)+
                }
            }

            /// Whether its rows can be sorted by a column.
            pub fn sortable(&self) -> bool {
                match self {
                    $(Screen::$variant(s) => s.sortable(),)+
                }
            }

            /// Whether it shows text scrolled line by line (no table).
            pub fn is_text(&self) -> bool {
                match self {
                    $(Screen::$variant(s) => s.is_text(),)+
                }
            }

            /// Terminal rows of the panel above the table.
            pub fn panel_rows(&self) -> u16 {
                match self {
                    $(Screen::$variant(s) => s.panel_rows(),)+
                }
            }
        }

        impl Stores {
            /// The queries due: the module of `top` plans for what it
            /// shows, every other one for while it is hidden
            /// ([`Module::plan_hidden`]); a module fetching from the
            /// cluster plans only while `connected`.
            pub fn plan(
                &mut self,
                top: Option<&Screen>,
                seen: &Seen,
                ids: &mut RequestIds,
                connected: bool,
            ) -> Vec<Query> {
                let mut due = Vec::new();
                $(
                    if connected
                        || !<<$module::$shown as Module>::Source as Source>::NEEDS_CLUSTER
                    {
                        let query = match top {
                            Some(Screen::$variant(s)) => s.plan(&mut self.$module, ids, seen),
                            _ => <$module::$shown as Module>::plan_hidden(
                                &mut self.$module,
                                ids,
                                seen,
                            ),
                        };
                        due.extend(query.map(Query::$variant));
                    }
                )+
                due
            }

            /// What identifies row `index` of `screen`, if its rows are
            /// rebuilt from answers.
            pub fn identity(&self, screen: &Screen, index: usize) -> Option<String> {
                match screen {
                    $(Screen::$variant(s) => s.identity(&self.$module, index),)+
                }
            }

            /// What the title counts among `rows` of `screen`.
            pub fn counts(
                &self,
                screen: &Screen,
                rows: &[usize],
            ) -> std::collections::BTreeMap<&'static str, usize> {
                match screen {
                    $(Screen::$variant(s) => s.counts(&self.$module, rows),)+
                }
            }

            /// Whether `screen`'s rows change by the second.
            pub fn counts_seconds(&self, screen: &Screen) -> bool {
                match screen {
                    $(Screen::$variant(s) => s.counts_seconds(&self.$module),)+
                }
            }

            /// What Enter on row `index` of `screen` opens, if anything.
            pub fn enter(&mut self, screen: &Screen, index: usize) -> Option<Goto<Screen>> {
                match screen {
                    $(Screen::$variant(s) => {
                        s.enter(&mut self.$module, index).map(|goto| goto.map(Screen::$variant))
                    })+
                }
            }

            /// Lines of `screen`'s text, if it shows text.
            pub fn text_lines(&self, screen: &Screen) -> usize {
                match screen {
                    $(Screen::$variant(s) => s.text_lines(&self.$module),)+
                }
            }

            /// Draw `screen`'s text into `area` from line `offset` under
            /// `title`.
            pub fn draw_text(
                &self,
                frame: &mut Frame,
                area: Rect,
                screen: &Screen,
                view: (usize, &str),
                theme: &Theme,
            ) {
                match screen {
                    $(Screen::$variant(s) => s.draw_text(frame, area, &self.$module, view, theme),)+
                }
            }

            /// Hand `msg` to its store: what the status line should say,
            /// if anything.
            pub fn receive(&mut self, msg: Msg, clock: Clock) -> Option<String> {
                match msg {
                    $(Msg::$variant(m) => {
                        <$module::$shown as Module>::receive(&mut self.$module, m, clock);
                        <$module::$shown as Module>::take_notice(&mut self.$module)
                    })+
                }
            }

            /// The stores the next context's session starts with (`:ctx`):
            /// each module's [`Module::carry`] of its old one.
            #[must_use]
            pub fn carry(&mut self) -> Stores {
                Stores {
                    $($module: <$module::$shown as Module>::carry(&mut self.$module),)+
                }
            }

            /// Ask every screen again at its next chance (the `r` key).
            pub fn expire(&mut self) {
                $(<$module::$shown as Module>::expire(&mut self.$module);)+
            }

            /// Answers taken by every store together: rows are rebuilt
            /// when it moves.
            pub fn answers(&self) -> u64 {
                0 $(+ <$module::$shown as Module>::answers(&self.$module))+
            }

            /// The row list of `screen`: the rows `keep` lets through.
            pub fn rows(
                &self,
                screen: &Screen,
                keep: &mut impl FnMut(&str) -> bool,
            ) -> Vec<usize> {
                match screen {
                    $(Screen::$variant(s) => s.rows(&self.$module, keep),)+
                }
            }

            /// Keep `screen`'s rows in step with its store, if its module
            /// keeps them itself ([`Module::keep_rows`]); whether it did.
            pub fn keep_rows(&mut self, screen: &Screen, kept: Kept<'_>) -> bool {
                match screen {
                    $(Screen::$variant(s) => s.keep_rows(&mut self.$module, kept),)+
                }
            }

            /// Sort `rows` of `screen` by `column`.
            pub fn sort(
                &self,
                screen: &Screen,
                clock: Clock,
                column: usize,
                rows: &mut Vec<usize>,
            ) {
                match screen {
                    $(Screen::$variant(s) => s.sort(&self.$module, clock, column, rows),)+
                }
            }

            /// The visible rows `window` of `screen`'s table.
            pub fn visible(
                &self,
                screen: &Screen,
                look: (Clock, &Theme),
                window: impl Iterator<Item = usize>,
            ) -> Grid {
                match screen {
                    $(Screen::$variant(s) => s.visible(&self.$module, look, window),)+
                }
            }

            /// What `screen`'s title adds after the filter.
            pub fn status(&self, screen: &Screen, now: Instant) -> String {
                match screen {
                    $(Screen::$variant(s) => s.status(&self.$module, now),)+
                }
            }

            /// What `screen`'s title says last, after the count of columns
            /// not shown.
            pub fn title_end(&self, screen: &Screen) -> String {
                match screen {
                    $(Screen::$variant(s) => s.title_end(&self.$module),)+
                }
            }

            /// Draw `screen`'s panel into `area`.
            pub fn draw_panel(
                &self,
                frame: &mut Frame,
                area: Rect,
                screen: &Screen,
                look: (Clock, &Theme),
            ) {
                match screen {
                    $(Screen::$variant(s) => s.draw_panel(frame, area, &self.$module, look),)+
                }
            }
        }

        /// The work of carrying out `query` against what `reach` holds
        /// (the worker runs it off the loop): the message for the store
        /// that asked. None when the session lacks its module's source.
        pub fn fetch(
            reach: &Reach,
            query: Query,
        ) -> Option<Pin<Box<dyn Future<Output = Msg> + Send>>> {
            match query {
                $(Query::$variant(q) => {
                    let source = <<$module::$shown as Module>::Source as Source>::from_reach(reach)?;
                    Some(Box::pin(async move {
                        Msg::$variant(<$module::$shown as Module>::fetch(source, q).await)
                    }))
                })+
            }
        }
    };
}
