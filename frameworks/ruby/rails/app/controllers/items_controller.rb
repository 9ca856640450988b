# frozen_string_literal: true

require "shootout/items"

# crud: the items REST API as Rails' scaffold writes a controller for API mode: resources routes, strong
# parameters, the model's validations answered 422 with its errors, find's RecordNotFound answered 404 by
# Rails' rescue responses. A body that is not JSON fails in Rails' parameter parser (ParseError, 400).
class ItemsController < ActionController::API
  # The JSON body's members wrapped under "item" for strong parameters, as a generated app's
  # config/initializers/wrap_parameters.rb turns on for every controller.
  wrap_parameters :item, format: [:json]
  before_action :set_item, only: %i[show update destroy]

  # JSON that is not an object with an item's members leaves nothing to wrap under "item": that is the
  # contract's wrong shape (422), not the 400 Rails answers to a missing parameter.
  rescue_from ActionController::ParameterMissing do |error|
    render json: { error: error.message }, status: :unprocessable_entity
  end

  def index
    limit, offset = Shootout::Items.window(params[:page], params[:size])
    return render json: { error: "page must be an integer from 1, size one from 1 to 100" }, status: :bad_request unless limit

    render json: Item.order(:id).limit(limit).offset(offset)
  end

  def show
    render json: @item
  end

  def create
    @item = Item.new(item_params)
    if @item.save
      render json: @item, status: :created, location: @item
    else
      render json: @item.errors, status: :unprocessable_entity
    end
  end

  # PUT and PATCH (resources routes both here) replace the item whole.
  def update
    if @item.update(item_params)
      render json: @item
    else
      render json: @item.errors, status: :unprocessable_entity
    end
  end

  def destroy
    @item.destroy
    head :no_content
  end

  private

  def set_item
    @item = Item.find(params[:id])
  end

  # A member the body leaves out becomes nil, which the model refuses, rather than keeping the stored value.
  def item_params
    params.require(:item).permit(:name, :quantity).reverse_merge(name: nil, quantity: nil)
  end
end
