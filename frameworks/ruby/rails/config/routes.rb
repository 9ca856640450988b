# frozen_string_literal: true

Rails.application.routes.draw do
  get "plaintext", to: "bench#plaintext"
  get "json", to: "bench#json"
  get "json-comp", to: "bench#json_comp"
  post "upload", to: "uploads#create"
  get "db", to: "worlds#db"
  get "queries", to: "worlds#queries"
  get "updates", to: "worlds#updates"
  get "cached-queries", to: "worlds#cached"
  get "fortunes", to: "fortunes#index"
  get "session", to: "sessions#show"
  get "hash", to: "hashes#show"
  # API mode's resources: index, show, create, update (PUT and PATCH) and destroy.
  resources :items
end
