# frozen_string_literal: true

class Fortune < ApplicationRecord
  self.table_name = "fortune"
end
