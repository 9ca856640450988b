# frozen_string_literal: true

require "shootout/techempower"

# ActionController::Base, not ::API: the page is rendered by Action View (ERB, escaped by default).
class FortunesController < ActionController::Base
  def index
    @fortunes = Shootout::TechEmpower.fortunes_sorted(Fortune.all)
    render layout: false, content_type: "text/html"
  end
end
