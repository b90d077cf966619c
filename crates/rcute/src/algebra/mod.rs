//! The layout algebra (`docs/operations.md`): one module per operation family.

pub(crate) mod base_case;
pub mod coalesce;
pub mod codomain;
pub mod common;
pub mod complement;
pub mod composition;
pub mod divide;
pub mod filter;
pub mod inverse;
pub mod layout_add;
pub(crate) mod leaf;
pub mod make;
pub mod modes;
pub mod product;
pub mod recast;
pub mod slice;
pub mod symbolic;
#[cfg(test)]
mod symbolic_adversarial;

pub use coalesce::{coalesce, coalesce_by_mode, coalesce_z, coalesce_z_by_mode};
pub use codomain::{coprofile, coshape, cosize};
pub use common::{max_common_layout, max_common_vector};
pub use complement::complement;
pub use composition::composition;
pub use divide::{
    composition_none, flat_divide, logical_divide, logical_divide_none, logical_divide_none_at,
    tiled_divide, zipped_divide,
};
pub use filter::{filter, filter_by_mode, filter_zeros};
pub use inverse::{left_inverse, nullspace, right_inverse};
pub use layout_add::{greatest_common_domain, layout_add};
pub use make::{make_identity_layout, make_layout_like, make_ordered_layout};
pub use modes::{append, domain_distribute, group, prepend, tile_to_shape, tile_unzip};
pub use product::{
    blocked_product, flat_product, logical_product, raked_product, tiled_product, zipped_product,
};
pub use recast::{downcast, recast, upcast, Scale};
pub use slice::{slice, slice_and_offset};
pub use symbolic::Tiles;
