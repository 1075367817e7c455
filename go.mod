module github.com/kafkaflow/kflowgen

go 1.26.8
