# frozen_string_literal: true

# crud's row. Active Record casts what it is assigned ("3" to 3, 5 to "5") before it validates, so the JSON
# types are checked on the values as they came (*_before_type_cast); a member the body left out is nil.
class Item < ApplicationRecord
  validate :json_types
  validates :quantity, numericality: { only_integer: true, greater_than_or_equal_to: -2**31, less_than: 2**31 }

  private

  def json_types
    errors.add(:name, "must be a JSON string") unless name_before_type_cast.is_a?(String)
    errors.add(:quantity, "must be a JSON integer") unless quantity_before_type_cast.is_a?(Integer)
  end
end
