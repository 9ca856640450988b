//! crud (docs/workloads.md): the items table's five statements, the page parameters and the item body's shape.
//! The frameworks route the methods, read the body with their own JSON extractor into [`NewItem`] and map
//! serde's verdict to the contract's status ([`wrong_shape`]).

use std::fmt;
use std::num::IntErrorKind;

use serde::de::{value::MapAccessDeserializer, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::techempower::Error;
use crate::workloads::Pool;

pub const SELECT_ITEM: &str = "SELECT id, name, quantity FROM items WHERE id = $1";
pub const SELECT_PAGE: &str = "SELECT id, name, quantity FROM items ORDER BY id LIMIT $1 OFFSET $2";
// The id is the table's identity column's, handed back by RETURNING in the same statement.
pub const INSERT_ITEM: &str = "INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING id, name, quantity";
pub const UPDATE_ITEM: &str = "UPDATE items SET name = $1, quantity = $2 WHERE id = $3 RETURNING id, name, quantity";
pub const DELETE_ITEM: &str = "DELETE FROM items WHERE id = $1";

const DEFAULT_PAGE: i64 = 1;
const DEFAULT_SIZE: i64 = 10;
const MAX_SIZE: i64 = 100;

#[derive(Serialize)]
pub struct Item {
    pub id: i32,
    pub name: String,
    pub quantity: i32,
}

/// The body of POST and PUT: serde checks that name is a string and quantity an integer that fits i32 (a
/// fraction or a string is a type error); an `id` or any other member is ignored.
pub struct NewItem {
    pub name: String,
    pub quantity: i32,
}

#[derive(Deserialize)]
struct Fields {
    name: String,
    quantity: i32,
}

/// Only a JSON object: serde's derived struct would also take an array of the fields in order
/// (`["x", 3]`), which the contract refuses with 422 as JSON that is not an object.
impl<'de> Deserialize<'de> for NewItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectOnly;

        impl<'de> Visitor<'de> for ObjectOnly {
            type Value = NewItem;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("an object with a string name and an integer quantity")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NewItem, A::Error> {
                let Fields { name, quantity } = Fields::deserialize(MapAccessDeserializer::new(map))?;
                Ok(NewItem { name, quantity })
            }
        }

        deserializer.deserialize_map(ObjectOnly)
    }
}

/// Whether serde_json refused a body for its shape (422: a missing member, a wrong type, not an object) rather
/// than for not being JSON at all (400).
pub fn wrong_shape(error: &serde_json::Error) -> bool {
    error.classify() == serde_json::error::Category::Data
}

/// The answer of a refused page request or body, for the stacks that write their own.
#[derive(Serialize)]
pub struct Refusal {
    pub error: &'static str,
}

/// `?page=P&size=S`, read as text so that the reason of a refusal is ours (400), not a query extractor's.
#[derive(Deserialize)]
pub struct PageQuery {
    pub page: Option<String>,
    pub size: Option<String>,
}

/// The rows of one page: LIMIT and OFFSET of SELECT_PAGE.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
}

/// An integer, or the reason it is refused; one too long for i64 is still an integer (a page past the end).
fn integer(raw: Option<&str>, default: i64, refusal: &'static str) -> Result<i64, &'static str> {
    let Some(raw) = raw else { return Ok(default) };
    raw.parse().or_else(|error: std::num::ParseIntError| match error.kind() {
        IntErrorKind::PosOverflow => Ok(i64::MAX),
        IntErrorKind::NegOverflow => Ok(i64::MIN),
        _ => Err(refusal),
    })
}

/// page 1 and size 10 when absent; refused when not an integer, page below 1 or size outside 1..100.
pub fn page(page: Option<&str>, size: Option<&str>) -> Result<Page, &'static str> {
    let page = integer(page, DEFAULT_PAGE, "page must be an integer")?;
    let size = integer(size, DEFAULT_SIZE, "size must be an integer")?;
    if page < 1 {
        return Err("page must be 1 or more");
    }
    if !(1..=MAX_SIZE).contains(&size) {
        return Err("size must be between 1 and 100");
    }
    // A page too far for i64 is past the end all the same.
    Ok(Page { limit: size, offset: (page - 1).saturating_mul(size) })
}

fn item(row: &tokio_postgres::Row) -> Item {
    Item { id: row.get(0), name: row.get(1), quantity: row.get(2) }
}

pub async fn read(pool: &Pool, id: i32) -> Result<Option<Item>, Error> {
    let client = pool.get().await?;
    let select = client.prepare_cached(SELECT_ITEM).await?;
    Ok(client.query_opt(&select, &[&id]).await?.as_ref().map(item))
}

pub async fn list(pool: &Pool, page: Page) -> Result<Vec<Item>, Error> {
    let client = pool.get().await?;
    let select = client.prepare_cached(SELECT_PAGE).await?;
    Ok(client.query(&select, &[&page.limit, &page.offset]).await?.iter().map(item).collect())
}

pub async fn create(pool: &Pool, new: &NewItem) -> Result<Item, Error> {
    let client = pool.get().await?;
    let insert = client.prepare_cached(INSERT_ITEM).await?;
    Ok(item(&client.query_one(&insert, &[&new.name, &new.quantity]).await?))
}

/// The item as stored now, or None when no row has that id.
pub async fn update(pool: &Pool, id: i32, new: &NewItem) -> Result<Option<Item>, Error> {
    let client = pool.get().await?;
    let update = client.prepare_cached(UPDATE_ITEM).await?;
    Ok(client.query_opt(&update, &[&new.name, &new.quantity, &id]).await?.as_ref().map(item))
}

/// Whether a row had that id.
pub async fn delete(pool: &Pool, id: i32) -> Result<bool, Error> {
    let client = pool.get().await?;
    let delete = client.prepare_cached(DELETE_ITEM).await?;
    Ok(client.execute(&delete, &[&id]).await? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages() {
        assert_eq!(page(None, None), Ok(Page { limit: 10, offset: 0 }));
        assert_eq!(page(Some("3"), Some("7")), Ok(Page { limit: 7, offset: 14 }));
        assert_eq!(page(Some("99999999999999999999"), Some("100")), Ok(Page { limit: 100, offset: i64::MAX }));
        for (p, s) in [(Some("0"), None), (None, Some("0")), (None, Some("101")), (Some("x"), None), (None, Some("ten")), (Some(""), None), (Some("1.5"), None)] {
            assert!(page(p, s).is_err(), "{p:?} {s:?}");
        }
    }

    #[test]
    fn bodies() {
        let new: NewItem = serde_json::from_str(r#"{"id": 7, "name": "x", "quantity": -3, "extra": []}"#).unwrap();
        assert_eq!((new.name.as_str(), new.quantity), ("x", -3));
        assert!(!wrong_shape(&serde_json::from_str::<NewItem>(r#"{"name": "broken", "#).err().unwrap()));
        for body in [r#"{"name": "x"}"#, r#"{"quantity": 3}"#, r#"{"name": 5, "quantity": 3}"#, r#"{"name": "x", "quantity": "3"}"#,
                     r#"{"name": "x", "quantity": 1.5}"#, r#"{"name": "x", "quantity": 4294967296}"#, r#"[{"name": "x", "quantity": 3}]"#,
                     r#"["x", 3]"#, "3", "null"] {
            assert!(wrong_shape(&serde_json::from_str::<NewItem>(body).err().unwrap()), "{body}");
        }
    }
}
