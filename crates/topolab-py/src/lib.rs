// bindings come next
