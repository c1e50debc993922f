"""What the tables app reads for its pages, one module per topic; writes are in services."""
