# frozen_string_literal: true

class World < ApplicationRecord
  self.table_name = "world"

  def as_json(*) = { "id" => id, "randomNumber" => randomnumber }
end
